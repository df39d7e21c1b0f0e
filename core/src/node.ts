// Node-only parts of core (file system): kept out of the browser bundles.
export { DirectoryStore, fileNameOf } from './cache/dirstore.js';

export { defaultCacheDir } from './cache/default-dir.js';
export { useCompileCache, type CompileCacheState } from './engine/compile-cache.js';

export { RedisStore, LuaScript, CLAIM_PREFIX, type RedisCommands, type RedisStoreOptions } from './cache/redisstore.js';
export {
  relayRequest,
  isRelayedPath,
  queryWithoutCredentials,
  CREDENTIAL_PARAMS,
  type RelayAnswer,
  type RelayCaller,
  type RelayParams,
} from './engine/relay.js';
