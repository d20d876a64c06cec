/**
 * A worker entry for the pool's own tests: `echo` answers at once, `hang` never does (a stuck parser), `die`
 * ends its thread (a native crash).
 */
export default function runTask(message: { task: string; input: unknown }): unknown {
  if (message.task === 'hang') for (;;);
  if (message.task === 'die') process.exit(1)
  return message.input
}
