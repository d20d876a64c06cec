import sharp from 'sharp'

type Task = (input: unknown) => unknown

/*
 * libvips keeps no cache of decoded images between tasks (each page is read once) and decodes on one thread: the
 * process reads one page at a time beside the other OCR process on a two-core machine, and every libvips thread
 * holds buffers of its own.
 */
sharp.cache(false)
sharp.concurrency(1)
/*
 * No source maps for stack traces here (tsx turns them on): Node would parse the map of every module that names
 * one, and pdf.js's (2.4 MB of JSON) kept ~80 MB resident in the process for its life. A task's error goes back
 * as its message alone.
 */
process.setSourceMapsEnabled(false)

/**
 * A task a child process runs (jobs/task-process.ts): document recognition's, loaded on first use, so the process
 * starts in a fraction of the time the whole worker task table takes to load.
 */
async function taskNamed(name: string): Promise<Task | undefined> {
  const { documentRecognitionProcessTasks } = await import('./document-recognition/worker-tasks')
  return (documentRecognitionProcessTasks as Record<string, Task>)[name]
}

/**
 * What the process holds now, with each answer: the parent ends a process grown past its limit (`recycleAboveMb`).
 * Over the limit, a task's garbage is collected first and the process measured again (the parent starts it with
 * `--expose-gc`): PaddleOCR's library builds a page's model input in plain arrays, hundreds of MB that V8 would
 * otherwise free only some pages later, and the process was ended for memory it was about to give back. Under
 * it, nothing is collected: a full collection of the heap pdf.js and the word list make took 15-30 ms after every
 * task, three times per document, before its answer went back.
 */
function residentMb(recycleAboveMb: number | undefined): number {
  const resident = () => Math.round(process.memoryUsage.rss() / (1024 * 1024))
  const held = resident()
  if (recycleAboveMb === undefined || held <= recycleAboveMb) return held
  ;(globalThis as { gc?: () => void }).gc?.()
  return resident()
}

/** Child-process entry: runs the tasks its parent sends over IPC and answers each with its result or error. */
process.on(
  'message',
  async (message: { id: number; task: string; input: unknown; recycleAboveMb?: number }) => {
    try {
      const task = await taskNamed(message.task)
      if (!task) throw new Error(`Unknown task: ${message.task}`)
      const result = await task(message.input)
      process.send?.({ id: message.id, result, rssMb: residentMb(message.recycleAboveMb) })
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      process.send?.({ id: message.id, error: reason, rssMb: residentMb(message.recycleAboveMb) })
    }
  },
)
process.on('disconnect', () => process.exit(0))
