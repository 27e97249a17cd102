// The README's Next.js configuration, run by test/ecosystem/recipes.test.ts once this folder is installed (npm install here).
// --- recipe ---
// next.config.mjs: Node loads the tracker from node_modules instead of Next.js bundling it
export default { serverExternalPackages: ['outcome-tracker'] };
// --- end ---
