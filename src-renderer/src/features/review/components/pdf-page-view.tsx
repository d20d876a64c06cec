import type { PDFDocumentProxy } from 'pdfjs-dist'
import { type PointerEvent, type RefObject, useEffect, useMemo, useRef, useState } from 'react'
import { PdfCanvas } from '../../../components/pdf/pdf-canvas'
import type { Bbox, FieldReview, PageWord } from '../api/review-types'
import { labelWidth, placeLabels, type Rect } from './label-placement'

export interface PageSize {
  width: number
  height: number
}

/** A drag shorter than this (px) is a click on a word. */
const DRAG_THRESHOLD = 4

/** Whether an element is within `margin` of its scrolling view: pages and thumbnails render only then. */
export function useNearView(ref: RefObject<HTMLElement | null>, margin: string): boolean {
  const [near, setNear] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const observer = new IntersectionObserver((entries) => setNear(entries.some((e) => e.isIntersecting)), {
      rootMargin: margin,
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref, margin])
  return near
}

const area = (field: FieldReview) => {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = field.bbox ?? []
  return (x1 - x0) * (y1 - y0)
}
function inside(word: PageWord, x: number, y: number) {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = word.bbox
  return x >= x0 && x <= x1 && y >= y0 && y <= y1
}
/** The field-name tab's size: 10 px text on a 14 px line with 4 px padding each side (see `.bbox-tab`). */
const TAB_HEIGHT = 14
const TAB_PADDING = 8
const TAB_MAX_WIDTH = 160
let tabFont: string | null = null
const tabWidth = (text: string) => {
  tabFont ??= `10px ${getComputedStyle(document.body).fontFamily}`
  return labelWidth(text, tabFont, TAB_PADDING, TAB_MAX_WIDTH)
}

/**
 * Where each field's name tab goes, in page pixels: outside every value box, clear of the other tabs and of the
 * page's words, the selected field's placed first, then in reading order; none while the words are not known yet,
 * null when there is no free spot (shown on hover or selection only).
 */
function useLabelSpots(
  fields: FieldReview[],
  selectedId: string | null,
  words: PageWord[] | undefined,
  width: number,
  height: number,
) {
  return useMemo(() => {
    if (!words) return new Map<string, Rect | null>()
    const requests = fields
      .map((field) => {
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = field.bbox ?? []
        return {
          id: field.id,
          selected: field.id === selectedId,
          box: [x0 * width, y0 * height, x1 * width, y1 * height] as Rect,
          width: tabWidth(field.label),
          height: TAB_HEIGHT,
        }
      })
      .sort((a, b) => Number(b.selected) - Number(a.selected) || a.box[1] - b.box[1] || a.box[0] - b.box[0])
    const printed = words.map(
      ({ bbox: [x0 = 0, y0 = 0, x1 = 0, y1 = 0] }) =>
        [x0 * width, y0 * height, x1 * width, y1 * height] as Rect,
    )
    return placeLabels(requests, { width, height }, printed)
  }, [fields, selectedId, words, width, height])
}

const percentBox = ([x0, y0, x1, y1]: number[]) => ({
  left: `${(x0 ?? 0) * 100}%`,
  top: `${(y0 ?? 0) * 100}%`,
  width: `${((x1 ?? 0) - (x0 ?? 0)) * 100}%`,
  height: `${((y1 ?? 0) - (y0 ?? 0)) * 100}%`,
})

/**
 * One page: canvas, the page's words (click one to fill the selected field, shift-click several, or drag a box
 * over them), and each field's box. Boxes are outlines; their tab selects the field, larger boxes are drawn first so
 * a small box over a large one stays clickable, and the selected one is on top.
 */
export function PdfPageView({
  pdf,
  pageNumber,
  size,
  scale,
  fields,
  selectedId,
  words,
  interactive,
  onVisible,
  onSelect,
  onTakeWords,
  onTakeRegion,
}: {
  pdf: PDFDocumentProxy
  pageNumber: number
  size: PageSize
  scale: number
  fields: FieldReview[]
  selectedId: string | null
  words: PageWord[] | undefined
  interactive: boolean
  onVisible(pageNumber: number): void
  onSelect(fieldId: string): void
  onTakeWords(pageNumber: number, words: PageWord[]): void
  onTakeRegion(pageNumber: number, bbox: Bbox): void
}) {
  const holder = useRef<HTMLElement>(null)
  const visible = useNearView(holder, '600px 0px')
  const [picked, setPicked] = useState<PageWord[]>([])
  const [drag, setDrag] = useState<{ from: [number, number]; to: [number, number] } | null>(null)
  const [hoveredId, setHoveredId] = useState<string | null>(null)
  const pickedRef = useRef(picked)
  pickedRef.current = picked

  useEffect(() => {
    if (visible) onVisible(pageNumber)
  }, [visible, pageNumber, onVisible])

  // Shift-clicked words are taken together when Shift is released.
  useEffect(() => {
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key !== 'Shift' || pickedRef.current.length === 0) return
      onTakeWords(pageNumber, pickedRef.current)
      setPicked([])
    }
    window.addEventListener('keyup', onKeyUp)
    return () => window.removeEventListener('keyup', onKeyUp)
  }, [pageNumber, onTakeWords])

  const fraction = (event: PointerEvent<HTMLElement>): [number, number] => {
    const rect = event.currentTarget.getBoundingClientRect()
    return [(event.clientX - rect.left) / rect.width, (event.clientY - rect.top) / rect.height]
  }
  const dragged = (d: NonNullable<typeof drag>) =>
    Math.hypot((d.to[0] - d.from[0]) * size.width * scale, (d.to[1] - d.from[1]) * size.height * scale) >
    DRAG_THRESHOLD

  function onPointerUp(event: PointerEvent<HTMLElement>) {
    if (!drag) return
    const current = { ...drag, to: fraction(event) }
    setDrag(null)
    if (dragged(current)) {
      const [ax, ay] = current.from
      const [bx, by] = current.to
      const clamp = (n: number) => Math.max(0, Math.min(1, n))
      onTakeRegion(pageNumber, [
        clamp(Math.min(ax, bx)),
        clamp(Math.min(ay, by)),
        clamp(Math.max(ax, bx)),
        clamp(Math.max(ay, by)),
      ])
      return
    }
    const word = words?.find((w) => inside(w, current.to[0], current.to[1]))
    if (!word) return
    if (event.shiftKey) setPicked((list) => (list.includes(word) ? list : [...list, word]))
    else {
      onTakeWords(pageNumber, [...picked, word])
      setPicked([])
    }
  }

  const width = size.width * scale
  const height = size.height * scale
  const ordered = [...fields].sort(
    (a, b) => Number(a.id === selectedId) - Number(b.id === selectedId) || area(b) - area(a),
  )
  const rect = drag && dragged(drag) ? drag : null
  const spots = useLabelSpots(fields, selectedId, words, width, height)
  // The smallest box under the pointer is the hovered field: its name shows even where it has no free spot.
  const hover = (event: PointerEvent<HTMLElement>) => {
    const [x, y] = fraction(event)
    const under = fields
      .filter((field) => {
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = field.bbox ?? []
        return x >= x0 && x <= x1 && y >= y0 && y <= y1
      })
      .sort((a, b) => area(a) - area(b))[0]
    setHoveredId(under?.id ?? null)
  }
  return (
    <section
      ref={holder}
      className="pdf-page"
      style={{ width, height }}
      data-page={pageNumber}
      aria-label={`Page ${pageNumber}`}
      onPointerMove={hover}
      onPointerLeave={() => setHoveredId(null)}
    >
      <PdfCanvas
        pdf={pdf}
        pageNumber={pageNumber}
        scale={scale}
        visible={visible}
        width={width}
        height={height}
      />
      {interactive ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: pointer gestures on the page; the field list is the keyboard's way
        <div
          className="page-layer"
          role="presentation"
          onPointerDown={(event) => {
            if (event.button !== 0) return
            event.currentTarget.setPointerCapture(event.pointerId)
            const at = fraction(event)
            setDrag({ from: at, to: at })
          }}
          // Shift+click gathers words: the browser must not also extend a text selection across the screen.
          onMouseDown={(event) => event.shiftKey && event.preventDefault()}
          onPointerMove={(event) => drag && setDrag({ ...drag, to: fraction(event) })}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
        >
          {(words ?? []).map((word, index) => (
            <span
              // Words are a fixed sequence of the page: their index is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              className={picked.includes(word) ? 'pdf-word picked' : 'pdf-word'}
              data-text={word.text}
              style={percentBox(word.bbox)}
            />
          ))}
          {rect ? (
            <div
              className="drag-rect"
              style={percentBox([
                Math.min(rect.from[0], rect.to[0]),
                Math.min(rect.from[1], rect.to[1]),
                Math.max(rect.from[0], rect.to[0]),
                Math.max(rect.from[1], rect.to[1]),
              ])}
            />
          ) : null}
        </div>
      ) : null}
      {ordered.map((field) => (
        <div
          key={field.id}
          data-field-id={field.id}
          className={`bbox bbox-${field.review_status}${field.id === selectedId ? ' selected' : ''}`}
          style={percentBox(field.bbox ?? [])}
        />
      ))}
      {ordered.map((field) => {
        const spot = spots.get(field.id)
        const shown = spot || field.id === selectedId || field.id === hoveredId
        if (!shown) return null
        // A name without a free spot floats above its box while hovered or selected.
        const [x0 = 0, y0 = 0] = field.bbox ?? []
        const at = spot ?? [x0 * width, Math.max(0, y0 * height - TAB_HEIGHT - 2)]
        return (
          <button
            key={field.id}
            type="button"
            className={`bbox-tab bbox-tab-${field.review_status}${spot ? '' : ' floating'}${field.id === selectedId ? ' selected' : ''}`}
            style={{ left: at[0], top: at[1], ...(spot && { width: spot[2] - spot[0] }) }}
            data-label-of={field.id}
            title={`${field.label}: ${field.value ?? '(missing)'}`}
            aria-label={`Box of ${field.label}`}
            aria-pressed={field.id === selectedId}
            onClick={() => onSelect(field.id)}
          >
            {field.label}
          </button>
        )
      })}
    </section>
  )
}
