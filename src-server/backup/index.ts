/** Online backup's public face: its admin route. */
export { backupRoutes } from './backup.routes'
