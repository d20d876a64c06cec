import type { FieldDefinition } from '@server/document-recognition/extraction/field-config'
import { Button } from '../../../components/ui'

type FieldType = FieldDefinition['type']

/** Every field type the extraction knows, as an admin reads it (a Record, so a new type fails to compile here). */
const TYPE_LABELS: Record<FieldType, string> = {
  string: 'Text',
  number: 'Number',
  money: 'Amount',
  date: 'Date',
  enum: 'One of a list',
  boolean: 'Yes / no',
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

/** A configuration whose `fields` the editor can show, or why it cannot. */
function readConfig(draft: string): { config: Record<string, unknown>; fields: FieldDefinition[] } | string {
  let config: unknown
  try {
    config = JSON.parse(draft)
  } catch {
    return 'The configuration is not valid JSON; fix it in the raw JSON.'
  }
  if (!config || typeof config !== 'object' || Array.isArray(config))
    return 'The configuration is not an object.'
  const fields = (config as { fields?: unknown }).fields ?? []
  if (!Array.isArray(fields)) return 'The configuration’s "fields" is not a list; fix it in the raw JSON.'
  return { config: config as Record<string, unknown>, fields: fields as FieldDefinition[] }
}

/** A number typed in a validation box: empty removes the rule. */
const bound = (text: string) =>
  text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Number(text)

/** The field with `validation` changed, the object dropped when no rule is left (as the shipped configs write it). */
function withValidation(field: FieldDefinition, patch: Partial<NonNullable<FieldDefinition['validation']>>) {
  const validation = Object.fromEntries(
    Object.entries({ ...field.validation, ...patch }).filter(
      ([, value]) => value !== undefined && value !== false,
    ),
  )
  const { validation: _, ...rest } = field
  return Object.keys(validation).length > 0 ? { ...rest, validation } : rest
}

/**
 * The extractor's fields as a form: name, label, type, required, the labels printed beside the value, and the
 * common checks. It edits the same configuration JSON the raw editor does (every other key kept as it is), so
 * the two can be switched between at any time.
 */
export function ExtractorFieldsEditor({ draft, onChange }: { draft: string; onChange(draft: string): void }) {
  const read = readConfig(draft)
  if (typeof read === 'string') return <p className="field-error">{read}</p>
  const { config, fields } = read
  const write = (next: FieldDefinition[]) => onChange(JSON.stringify({ ...config, fields: next }, null, 2))
  const update = (index: number, next: FieldDefinition) =>
    write(fields.map((field, at) => (at === index ? next : field)))

  return (
    <div className="stack">
      <section className="fields-editor" aria-label="Extractor fields">
        {fields.map((field, index) => {
          const name = field.label || field.key || `field ${index + 1}`
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a field is a position in the list being edited; its key is one of the inputs.
            <fieldset key={index} className="fields-editor-field">
              <legend>{name}</legend>
              <div className="field">
                <span className="field-hint">Name</span>
                <input
                  aria-label={`Name of ${name}`}
                  className="mono"
                  value={field.key}
                  pattern="[a-z][a-z0-9_]*"
                  onChange={(e) => update(index, { ...field, key: e.target.value })}
                />
              </div>
              <div className="field">
                <span className="field-hint">Label</span>
                <input
                  aria-label={`Label of ${name}`}
                  value={field.label}
                  onChange={(e) => update(index, { ...field, label: e.target.value })}
                />
              </div>
              <div className="field">
                <span className="field-hint">Type</span>
                <select
                  aria-label={`Type of ${name}`}
                  value={field.type}
                  onChange={(e) => update(index, { ...field, type: e.target.value as FieldType })}
                >
                  {Object.entries(TYPE_LABELS).map(([type, text]) => (
                    <option key={type} value={type}>
                      {text}
                    </option>
                  ))}
                </select>
              </div>
              {field.type === 'enum' ? (
                <div className="field">
                  <span className="field-hint">Values</span>
                  <input
                    aria-label={`Values of ${name}`}
                    placeholder="EUR, USD"
                    value={(field.enum ?? []).join(', ')}
                    onChange={(e) => update(index, { ...field, enum: list(e.target.value) })}
                  />
                </div>
              ) : null}
              <div className="field fields-editor-wide">
                <span className="field-hint">Printed labels (comma separated)</span>
                <input
                  aria-label={`Printed labels of ${name}`}
                  placeholder="Invoice No., Invoice #"
                  value={(field.anchors ?? []).join(', ')}
                  onChange={(e) => update(index, { ...field, anchors: list(e.target.value) })}
                />
              </div>
              {field.type === 'number' || field.type === 'money' ? (
                <>
                  <div className="field">
                    <span className="field-hint">Minimum</span>
                    <input
                      aria-label={`Minimum of ${name}`}
                      type="number"
                      value={field.validation?.min ?? ''}
                      onChange={(e) => update(index, withValidation(field, { min: bound(e.target.value) }))}
                    />
                  </div>
                  <div className="field">
                    <span className="field-hint">Maximum</span>
                    <input
                      aria-label={`Maximum of ${name}`}
                      type="number"
                      value={field.validation?.max ?? ''}
                      onChange={(e) => update(index, withValidation(field, { max: bound(e.target.value) }))}
                    />
                  </div>
                </>
              ) : null}
              {field.type === 'string' ? (
                <div className="field">
                  <span className="field-hint">Pattern (regular expression)</span>
                  <input
                    aria-label={`Pattern of ${name}`}
                    className="mono"
                    value={field.pattern ?? ''}
                    onChange={(e) => {
                      const { pattern: _, ...rest } = field
                      update(index, e.target.value ? { ...rest, pattern: e.target.value } : rest)
                    }}
                  />
                </div>
              ) : null}
              <div className="fields-editor-checks">
                <label className="checks">
                  <input
                    type="checkbox"
                    aria-label={`${name} is required`}
                    checked={field.required}
                    onChange={(e) => update(index, { ...field, required: e.target.checked })}
                  />
                  Required
                </label>
                {field.type === 'date' ? (
                  <label className="checks">
                    <input
                      type="checkbox"
                      checked={field.validation?.not_in_future ?? false}
                      onChange={(e) =>
                        update(index, withValidation(field, { not_in_future: e.target.checked }))
                      }
                    />
                    Not in the future
                  </label>
                ) : null}
                <Button
                  variant="ghost"
                  aria-label={`Remove ${name}`}
                  onClick={() => write(fields.filter((_, at) => at !== index))}
                >
                  Remove
                </Button>
              </div>
            </fieldset>
          )
        })}
      </section>
      <div>
        <Button
          onClick={() =>
            write([
              ...fields,
              { key: `field_${fields.length + 1}`, label: '', type: 'string', required: false, anchors: [] },
            ])
          }
        >
          Add a field
        </Button>
      </div>
    </div>
  )
}
