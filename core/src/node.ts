// Node-only parts of core (file system): kept out of the browser bundles.
export { DirectoryStore } from './cache/dirstore.js';
