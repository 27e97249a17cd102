/** The admin web pages as a tracker extension: `createTracker({ storage, extensions: [adminArea()] })`. */
export { type AdminAreaOptions, adminArea } from './area.js';
