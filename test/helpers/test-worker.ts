/** A worker entry for the pool's own tests: `echo` answers at once, `hang` never does (a stuck parser). */
export default function runTask(message: { task: string; input: unknown }): unknown {
  if (message.task === 'hang') for (;;);
  return message.input
}
