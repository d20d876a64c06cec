export { type App, type CreateServerOptions, createServer } from './app'
export { type RunningServer, startServer } from './server'
