import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/**
 * The files the docs pages serve, copied into the package at build time (`dist/assets`, by
 * scripts/build-assets.mjs), so an install needs no renderer package at run time.
 */
export type DocsAssetName = 'guide.html';

export interface DocsAsset {
  body: string;
  /** A strong ETag of the content, also its version in the asset's URL. */
  etag: string;
  version: string;
}

/**
 * Where the built assets are: next to the compiled core (dist/core/openapi → dist/assets), or, when
 * the core runs from its TypeScript sources (tests), in the build output of the checkout.
 */
const candidates = (name: string) => [
  new URL(`../../assets/${name}`, import.meta.url),
  new URL(`../../../dist/assets/${name}`, import.meta.url),
];

async function read(name: DocsAssetName): Promise<string> {
  for (const url of candidates(name)) {
    try {
      return await readFile(url, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`docs asset ${name} is missing: run npm run build`);
}

const loaded = new Map<DocsAssetName, Promise<DocsAsset>>();

/** An asset with its content hash, read once on first use. */
export function docsAsset(name: DocsAssetName): Promise<DocsAsset> {
  let asset = loaded.get(name);
  if (!asset) {
    asset = read(name).then((body) => {
      const version = createHash('sha256').update(body).digest('base64url').slice(0, 16);
      return { body, version, etag: `"${version}"` };
    });
    asset.catch(() => loaded.delete(name));
    loaded.set(name, asset);
  }
  return asset;
}
