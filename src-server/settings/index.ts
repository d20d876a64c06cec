/** Platform settings' public face: typed reads of one setting, the admin routes, and the secret key's check. */

export { sealsWithStoredKey } from './secret-key-check'
export { settingsRoutes } from './settings.routes'
export {
  type ConfigKey,
  installDefaults,
  type PlatformConfig,
  readConfigValue,
  readConfigValues,
} from './settings.service'
export { platformConfig } from './settings.tables'
