/** A piece of text and where it came from: `char_start`/`char_end` are UTF-16 offsets into the chunked text. */
export interface TextChunk {
  content: string
  char_start: number
  char_end: number
}

/** A span [start, end) of the text being chunked. */
export interface Span {
  start: number
  end: number
}
