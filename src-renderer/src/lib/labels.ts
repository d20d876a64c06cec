/**
 * The one place where the server's enum values become words a person reads. Screens call `label(kind, value)`;
 * a value missing here is shown with its underscores turned into spaces rather than as a raw key.
 */
const LABELS = {
  asset_type: { agent: 'Agent', knowledge_source: 'Knowledge source', document_agent: 'Document agent' },
  pricing_model: { one_time: 'One-time price', free: 'Free' },
  listing_status: {
    pending_review: 'Waiting for review',
    published: 'Published',
    rejected: 'Rejected',
    suspended: 'Suspended',
    unlisted: 'Unlisted',
  },
  order_status: { pending: 'Pending', paid: 'Paid', refunded: 'Refunded' },
  transaction_type: {
    topup: 'Top-up',
    spend: 'Purchase',
    income: 'Sale income',
    commission: 'Commission',
    refund: 'Refund',
    refund_reversal: 'Refund (given back)',
    withdraw: 'Withdrawal',
    transfer_out: 'Transfer sent',
    transfer_in: 'Transfer received',
    hold: 'Held',
    release: 'Released',
  },
  role: { admin: 'Admin', operator: 'Operator', reviewer: 'Reviewer', user: 'User' },
  document_status: {
    uploaded: 'Uploaded',
    parsing: 'Reading',
    parsed: 'Read',
    indexing: 'Indexing',
    indexed: 'Indexed',
    failed: 'Failed',
  },
  job_status: {
    queued: 'Queued',
    running: 'Running',
    succeeded: 'Done',
    failed: 'Failed',
    cancelled: 'Cancelled',
    published: 'Published',
    draft: 'Draft',
    retired: 'Retired',
  },
  runtime_agent_type: { document_extraction: 'Document extraction' },
  chunking_strategy: {
    recursive: 'Recursive (paragraphs, lines, sentences)',
    fixed_size: 'Fixed size',
    sentence: 'By sentences',
    paragraph: 'By paragraphs',
    semantic: 'By meaning (semantic)',
  },
  retrieval_mode: { hybrid: 'Hybrid (words and meaning)', bm25: 'Words (BM25)', vector: 'Meaning (vectors)' },
  config_source: { env: 'Environment variable', console: 'Console', builtin: 'Built in' },
  audit_action: {
    'backup.create': 'Backed up',
    'config.update': 'Changed configuration',
    'document_recognition.registry.put': 'Registered a recognition agent',
    'document_recognition.registry.delete': 'Removed a recognition agent',
    'listing.status': 'Moderated a listing',
    'mcp.credential.create': 'Added a credential',
    'mcp.credential.update': 'Changed a credential',
    'mcp.credential.rotate': 'Rotated a credential',
    'mcp.credential.delete': 'Deleted a credential',
    'mcp.server.create': 'Added a tool server',
    'mcp.server.update': 'Changed a tool server',
    'mcp.server.delete': 'Deleted a tool server',
    'model_providers.update': 'Changed model providers',
    'model_provider.delete': 'Deleted a model provider',
    'runtime_agent.create': 'Created a recognition agent',
    'runtime_agent.version.create': 'Drafted an agent version',
    'runtime_agent.version.publish': 'Published an agent version',
    'user.create': 'Created a user',
    'user.update': 'Changed a user',
  },
  audit_target: {
    listing: 'Listing',
    user: 'User',
    config: 'Configuration',
    runtime_agent: 'Recognition agent',
    mcp_server: 'Tool server',
    mcp_credential: 'Credential',
    model_providers: 'Model providers',
    model_provider: 'Model provider',
    backup: 'Backup',
  },
  run_status: { queued: 'Queued', running: 'Extracting', completed: 'Extracted', failed: 'Failed' },
  review_status: { pending: 'To review', flagged: 'Flagged', approved: 'Approved', rejected: 'Rejected' },
  field_status: {
    pending: 'Not reviewed',
    flagged: 'Flagged',
    accepted: 'Accepted',
    corrected: 'Corrected',
    not_on_document: 'Not on document',
  },
  flag_reason: {
    missing: 'no value found',
    low_confidence: 'low confidence',
    validation: 'failed a check',
    sampled: 'picked for a spot check',
    unconfirmed_learning: 'learned, not yet confirmed',
  },
  field_source: {
    rules: 'Read by the extraction rules',
    computed: 'Computed from other values, not read on the page',
    e_invoice: "Read from the issuer's e-invoice data",
    llm: 'Read by the model',
    learned: 'Learned from an earlier review of this layout',
    reviewer: 'Set by a reviewer',
  },
  message_role: { user: 'User', assistant: 'AI', agent: 'Operator', system: 'System', note: 'Note' },
  message_status: {
    complete: 'Complete',
    interrupted: 'Interrupted',
    draft: 'Draft (stopped by a takeover)',
  },
  tool_outcome: { success: 'Succeeded', timeout: 'Timed out', error: 'Error', blocked: 'Blocked by policy' },
} as const satisfies Record<string, Record<string, string>>

export type LabelKind = keyof typeof LABELS

/** A key such as `invoice_number` as words: "Invoice number". */
export function humanize(key: string): string {
  const words = key.replace(/[_.]+/g, ' ').trim().toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function label(kind: LabelKind, value: string | null | undefined): string {
  if (!value) return '—'
  return (LABELS[kind] as Record<string, string>)[value] ?? humanize(value)
}

/** Every value of a kind with its label, for selects. */
export const options = (kind: LabelKind) =>
  Object.entries(LABELS[kind] as Record<string, string>).map(([value, text]) => ({ value, text }))
