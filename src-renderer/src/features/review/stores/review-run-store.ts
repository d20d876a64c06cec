import { create } from 'zustand'
import { reviewApi } from '../api/review-api'
import type { FieldReview, FieldRevisions, RecognitionRun } from '../api/review-types'

interface RunState {
  run: RecognitionRun | null
  selectedId: string | null
  editing: boolean
  draft: string
  timeline: FieldRevisions | null
  open(runId: string): Promise<void>
  refresh(): Promise<void>
  select(fieldId: string | null): void
  move(step: 1 | -1): void
  nextFlagged(): void
  startEdit(): void
  setDraft(value: string): void
  cancelEdit(): void
  save(): Promise<void>
  accept(): Promise<void>
  reject(reason: string): Promise<void>
  rerun(): Promise<string>
}

const fieldsOf = (run: RecognitionRun | null) => run?.field_reviews ?? []

export const useReviewRun = create<RunState>((set, get) => {
  async function loadTimeline(fieldId: string | null) {
    const run = get().run
    if (!run || !fieldId) return set({ timeline: null })
    const timeline = await reviewApi.revisions(run.id, fieldId)
    if (get().selectedId === fieldId) set({ timeline })
  }

  function replaceField(field: FieldReview) {
    const run = get().run
    if (run)
      set({ run: { ...run, field_reviews: run.field_reviews.map((f) => (f.id === field.id ? field : f)) } })
  }

  async function afterFieldChange(field: FieldReview) {
    replaceField(field)
    set({ editing: false })
    // The run's review status and summary move with its fields (approved once all are settled).
    const run = get().run
    if (run) {
      const fresh = await reviewApi.run(run.id)
      set({ run: fresh })
    }
    await loadTimeline(field.id)
  }

  return {
    run: null,
    selectedId: null,
    editing: false,
    draft: '',
    timeline: null,

    async open(runId) {
      set({ run: null, selectedId: null, editing: false, timeline: null })
      const run = await reviewApi.run(runId)
      const first =
        run.field_reviews.find((f) => f.review_status === 'flagged') ?? run.field_reviews[0] ?? null
      set({ run, selectedId: first?.id ?? null })
      await loadTimeline(first?.id ?? null)
    },

    async refresh() {
      const run = get().run
      if (run) set({ run: await reviewApi.run(run.id) })
    },

    select(fieldId) {
      if (fieldId === get().selectedId) return
      set({ selectedId: fieldId, editing: false })
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
      const next = ordered.find((f) => f.review_status === 'flagged')
      if (next) get().select(next.id)
    },

    startEdit() {
      const field = fieldsOf(get().run).find((f) => f.id === get().selectedId)
      if (field) set({ editing: true, draft: field.value === null ? '' : String(field.value) })
    },
    setDraft(value) {
      set({ draft: value })
    },
    cancelEdit() {
      set({ editing: false })
    },

    async save() {
      const { run, selectedId, draft } = get()
      if (!run || !selectedId) return
      await afterFieldChange(await reviewApi.updateField(run.id, selectedId, { value: draft }))
    },

    async accept() {
      const { run, selectedId } = get()
      if (!run || !selectedId) return
      await afterFieldChange(await reviewApi.updateField(run.id, selectedId, { review_status: 'accepted' }))
      get().nextFlagged()
    },

    async reject(reason) {
      const run = get().run
      if (run) set({ run: await reviewApi.reject(run.id, reason) })
    },

    async rerun() {
      const run = get().run
      if (!run) throw new Error('No run is open.')
      return (await reviewApi.rerun(run.id)).target_run_id
    },
  }
})
