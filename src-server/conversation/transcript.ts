import type { MessageView, SessionView } from './conversation.schemas'

const speaker = (message: MessageView) =>
  message.role === 'agent' && message.author ? `agent (${message.author.username})` : message.role

/** A readable Markdown transcript of a session export. */
export function toMarkdown(transcript: { session: SessionView; messages: MessageView[] }): string {
  const { session, messages } = transcript
  const lines = [
    `# Session ${session.id}`,
    '',
    `- Owner: ${session.owner.username}`,
    `- State: ${session.state}`,
    `- Agent: ${session.agent_id ?? 'none'}`,
    `- Created: ${session.created_at}`,
    '',
  ]
  for (const message of messages) {
    const marks = [
      message.message_type !== 'user_chat' ? message.message_type : null,
      message.status !== 'complete' ? message.status : null,
    ]
      .filter(Boolean)
      .join(', ')
    lines.push(
      `## ${speaker(message)} · ${message.created_at}${marks ? ` (${marks})` : ''}`,
      '',
      message.content,
      '',
    )
    for (const citation of message.citations)
      lines.push(
        `> [${citation.index}] document ${citation.document_id}${citation.page_number === null ? '' : `, page ${citation.page_number}`}: ${citation.snippet}`,
      )
    if (message.citations.length > 0) lines.push('')
  }
  return lines.join('\n')
}
