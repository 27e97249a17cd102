import { sha256Hex } from '../sha256.js';

/** Tokens are stored as their SHA-256 only: a leaked database reveals no usable token. */
export const hashToken = (token: string): string => sha256Hex(token);

/** `cn_` followed by base62: the only shape a token can have. */
export const tokenPattern = /^cn_[0-9A-Za-z]{32,}$/;
