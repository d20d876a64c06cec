/** Serves the built console for every non-API path. */
export { consoleRoutes } from './console.routes'
