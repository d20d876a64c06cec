import type { FieldReviewPatch } from '@server/document-recognition/document-recognition.schemas'
import { create } from 'zustand'
import { useNotifications } from '../../../components/ui/notifications'
import { ApiError, notifyFailure } from '../../../lib/api-client'
import { forgetOnSignOut } from '../../../stores/session-store'
import { reviewApi } from '../api/review-api'
import type {
  Bbox,
  FieldReview,
  FieldRevisions,
  PageWord,
  RecognitionRun,
  RerunChoice,
} from '../api/review-types'
import { queueOrder } from './review-queue-store'

interface RunState {
  run: RecognitionRun | null
  selectedId: string | null
  editing: boolean
  draft: string
  /** The server's refusal of the last value sent for the selected field, shown at the field. */
  fieldError: string | null
  timeline: FieldRevisions | null
  /** Review actions in flight (keys pressed meanwhile wait in `queued`). */
  saving: number
  helpOpen: boolean
  /** The open run's words per page number, read as each page comes near view (clicked or boxed to fill a field). */
  words: Record<number, PageWord[]>
  loadWords(pageNumber: number): Promise<void>
  open(runId: string): Promise<void>
  /** A newer reading of the open run (from the live feed); the first field to look at is selected once it has fields. */
  receive(run: RecognitionRun): void
  select(fieldId: string | null): void
  move(step: 1 | -1): void
  nextFlagged(): void
  startEdit(): void
  setDraft(value: string): void
  cancelEdit(): void
  save(): Promise<void>
  accept(): Promise<void>
  /** Marks the selected field as not on this document and moves on. */
  notOnDocument(): Promise<void>
  /** Accepts every unflagged field read at the agent's threshold or above, in one request. */
  acceptConfident(): Promise<void>
  /** Accepts what is left unreviewed and approves the run, in one request (refused while a field is flagged). */
  approve(): Promise<void>
  takeWords(pageNumber: number, words: PageWord[]): Promise<void>
  takeRegion(pageNumber: number, bbox: Bbox): Promise<void>
  setHelp(open: boolean): void
  nextRunId(): Promise<string | null>
  reject(reason: string): Promise<void>
  rerun(choice?: RerunChoice): Promise<string>
}

const fieldsOf = (run: RecognitionRun | null) => run?.field_reviews ?? []
const isSettled = (field: FieldReview) =>
  field.review_status === 'accepted' ||
  field.review_status === 'corrected' ||
  field.review_status === 'not_on_document'
/** What `N` visits: flagged fields, and empty ones nobody has settled yet. */
const needsLook = (field: FieldReview) =>
  field.review_status === 'flagged' || (field.value === null && !isSettled(field))

const unionBox = (boxes: Bbox[]): Bbox => [
  Math.min(...boxes.map((b) => b[0])),
  Math.min(...boxes.map((b) => b[1])),
  Math.max(...boxes.map((b) => b[2])),
  Math.max(...boxes.map((b) => b[3])),
]

/** The run the view shows (or is opening): readings of any other run are ignored. */
let openingId: string | null = null

/** Pages of the open run whose words were asked for (read or on their way): each is asked once. */
const wordsAsked = new Set<number>()

let chain: Promise<unknown> = Promise.resolve()
/**
 * Runs review actions one after the other in the order their keys were pressed: a key pressed while a save is in
 * flight waits for it and then acts on the field selected by then, so fast typing never skips or doubles a field.
 */
export function queued(action: () => unknown): Promise<unknown> {
  chain = chain.then(action).catch(notifyFailure)
  return chain
}

export const useReviewRun = create<RunState>((set, get) => {
  async function loadTimeline(fieldId: string | null) {
    const run = get().run
    if (!run || !fieldId) return set({ timeline: null })
    const timeline = await reviewApi.revisions(run.id, fieldId)
    if (get().selectedId === fieldId) set({ timeline })
  }

  /** Sends a change of the selected field; a refused value stays in the editor with the server's message. */
  async function sendPatch(body: FieldReviewPatch): Promise<boolean> {
    const { run, selectedId } = get()
    if (!run || !selectedId) return false
    set((state) => ({ saving: state.saving + 1 }))
    try {
      await reviewApi.updateField(run.id, selectedId, body)
      // The run's review status and summary move with its fields (approved once all are settled).
      set({ run: await reviewApi.run(run.id), editing: false, fieldError: null })
      void loadTimeline(selectedId)
      return true
    } catch (error) {
      const message = error instanceof ApiError ? error.message : 'The change could not be saved.'
      if (error instanceof ApiError && error.status === 422) set({ fieldError: message })
      else useNotifications.getState().push({ kind: 'error', text: message })
      return false
    } finally {
      set((state) => ({ saving: state.saving - 1 }))
    }
  }

  /** A review action on the whole run; the run as it then reads replaces the shown one. */
  async function runAction(call: (runId: string) => Promise<RecognitionRun>) {
    const run = get().run
    if (!run) return
    set((state) => ({ saving: state.saving + 1 }))
    try {
      set({ run: await call(run.id) })
      void loadTimeline(get().selectedId)
    } finally {
      set((state) => ({ saving: state.saving - 1 }))
    }
  }

  /** After a settled field: the next field in order, else the first one still open; none left means approved. */
  function advance(fromId: string) {
    const fields = fieldsOf(get().run)
    const index = fields.findIndex((f) => f.id === fromId)
    const next = fields[index + 1] ?? fields.find((f) => !isSettled(f))
    if (next && next.id !== fromId) get().select(next.id)
  }

  return {
    run: null,
    selectedId: null,
    editing: false,
    draft: '',
    fieldError: null,
    timeline: null,
    saving: 0,
    helpOpen: false,
    words: {},

    async loadWords(pageNumber) {
      const runId = openingId
      if (!runId || wordsAsked.has(pageNumber)) return
      wordsAsked.add(pageNumber)
      try {
        const { words } = await reviewApi.pageWords(runId, pageNumber)
        if (runId === openingId) set({ words: { ...get().words, [pageNumber]: words } })
      } catch (failure) {
        // Asked again the next time the page comes into view.
        if (runId === openingId) wordsAsked.delete(pageNumber)
        throw failure
      }
    },

    async open(runId) {
      openingId = runId
      wordsAsked.clear()
      set({ run: null, selectedId: null, editing: false, timeline: null, fieldError: null, words: {} })
      get().receive(await reviewApi.run(runId))
    },

    receive(run) {
      const current = get().run
      // Only the run being shown, and never an older reading over a newer one (feed and fetches can cross).
      if (run.id !== openingId || (current && current.updated_at > run.updated_at)) return
      set({ run })
      if (!get().selectedId) {
        const first = run.field_reviews.find(needsLook) ?? run.field_reviews[0]
        if (first) get().select(first.id)
      }
    },

    select(fieldId) {
      if (fieldId === get().selectedId) return
      set({ selectedId: fieldId, editing: false, fieldError: null })
      void loadTimeline(fieldId)
    },

    move(step) {
      const fields = fieldsOf(get().run)
      if (fields.length === 0) return
      const index = fields.findIndex((f) => f.id === get().selectedId)
      const next = fields[Math.min(fields.length - 1, Math.max(0, index + step))]
      if (next) get().select(next.id)
    },

    nextFlagged() {
      const fields = fieldsOf(get().run)
      const index = fields.findIndex((f) => f.id === get().selectedId)
      const ordered = [...fields.slice(index + 1), ...fields.slice(0, index + 1)]
      const next = ordered.find(needsLook)
      if (next) get().select(next.id)
    },

    startEdit() {
      const field = fieldsOf(get().run).find((f) => f.id === get().selectedId)
      if (field)
        set({ editing: true, draft: field.value === null ? '' : String(field.value), fieldError: null })
    },
    setDraft(value) {
      set({ draft: value })
    },
    cancelEdit() {
      set({ editing: false, fieldError: null })
    },

    async save() {
      await sendPatch({ value: get().draft })
    },

    /** Accepts the selected field and moves to the next one; a field already settled is only passed. */
    async accept() {
      const field = fieldsOf(get().run).find((f) => f.id === get().selectedId)
      if (!field) return
      if (isSettled(field) || (await sendPatch({ review_status: 'accepted' }))) advance(field.id)
    },

    async notOnDocument() {
      const field = fieldsOf(get().run).find((f) => f.id === get().selectedId)
      if (field && (await sendPatch({ review_status: 'not_on_document' }))) advance(field.id)
    },

    acceptConfident: () => runAction(reviewApi.acceptConfident),

    async approve() {
      if (get().run?.review_status !== 'approved') await runAction(reviewApi.approve)
    },

    async takeWords(pageNumber, words) {
      if (words.length === 0) return
      const value = words.map((w) => w.text).join(' ')
      set({ draft: value })
      await sendPatch({ value, page_number: pageNumber, bbox: unionBox(words.map((w) => w.bbox as Bbox)) })
    },

    async takeRegion(pageNumber, bbox) {
      const { run, selectedId } = get()
      if (!run || !selectedId) return
      const read = await reviewApi.readRegion(run.id, selectedId, { page_number: pageNumber, bbox })
      if (!read.text) {
        set({ fieldError: 'No words were found in that box.' })
        return
      }
      const value = read.value ?? read.text
      set({ draft: String(value) })
      await sendPatch({ value, page_number: pageNumber, bbox: read.bbox ?? bbox })
    },

    setHelp(open) {
      set({ helpOpen: open })
    },

    /** The first run of the queue (flagged first, then pending) other than this one. */
    async nextRunId() {
      const current = get().run?.id
      const { items } = await reviewApi.runs({ status: 'completed' })
      const waiting = queueOrder(items).filter(
        (r) => r.id !== current && (r.review_status === 'flagged' || r.review_status === 'pending'),
      )
      return waiting[0]?.id ?? null
    },

    async reject(reason) {
      const run = get().run
      if (run) set({ run: await reviewApi.reject(run.id, reason) })
    },

    async rerun(choice) {
      const run = get().run
      if (!run) throw new Error('No run is open.')
      return (await reviewApi.rerun(run.id, choice)).target_run_id
    },
  }
})

// The run left open and the pages whose words were asked are the last user's: the next one opens their own.
forgetOnSignOut(useReviewRun, () => {
  openingId = null
  wordsAsked.clear()
})
