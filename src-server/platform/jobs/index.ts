/** Jobs' public face: the durable job runner, its table, the worker-thread pool and the task process. */
export { type JobContext, type JobHandler, type JobRow, JobRunner } from './job-runner'
export { findJobByPayload } from './jobs.repository'
export { job } from './jobs.tables'
export { TaskProcess } from './task-process'
export { type RunOptions, sharedBytes, WorkerPool } from './worker-pool'
