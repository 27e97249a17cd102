/** The admin web pages as a tracker extension: `createTracker({ storage, extensions: [adminArea()] })`. */
export { adminArea } from './area.js';
