/** Platform settings' public face: typed reads of one setting and the admin routes. */
export { settingsRoutes } from './settings.routes'
export {
  type ConfigKey,
  installDefaults,
  type PlatformConfig,
  readConfigValue,
  readConfigValues,
} from './settings.service'
export { platformConfig } from './settings.tables'
