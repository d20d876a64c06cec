/** Jobs' public face: the durable job runner, its table and the worker-thread pool. */
export { enqueueJob, type JobContext, type JobHandler, type JobRow, JobRunner } from './job-runner'
export { job } from './jobs.tables'
export { type RunOptions, sharedBytes, WorkerPool } from './worker-pool'
