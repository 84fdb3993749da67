// A step's output as it streams: the first and last part are kept, the middle only counted, so
// memory stays flat however much a step prints (a 1 GB log costs the same as a 100 KB one).
import { OUTPUT_CAP } from "../envelope.ts"

export class OutputWindow {
  private head = ""
  private tail: string[] = []
  private tailLength = 0
  private total = 0
  bytes = 0
  private readonly half: number

  /** `cap`: the most characters `text()` returns (marker included). */
  constructor(cap = OUTPUT_CAP) {
    this.half = Math.floor((cap - 64) / 2)
  }

  push(text: string, bytes: number): void {
    this.total += text.length
    this.bytes += bytes
    if (this.head.length < this.half) {
      const room = this.half - this.head.length
      this.head += text.slice(0, room)
      text = text.slice(room)
      if (!text) return
    }
    this.tail.push(text)
    this.tailLength += text.length
    // drop whole chunks from the front while the rest still fills the tail
    while (this.tail.length > 1 && this.tailLength - this.tail[0]!.length >= this.half) this.tailLength -= this.tail.shift()!.length
    if (this.tail.length > 64) this.compact()
  }

  text(): string {
    this.compact()
    const tail = this.tail[0] ?? ""
    const dropped = this.total - this.head.length - tail.length
    if (dropped <= 0) return this.head + tail
    return `${this.head}\n[... ${dropped} characters omitted ...]\n${tail}`
  }

  private compact(): void {
    const joined = this.tail.join("")
    const kept = joined.slice(Math.max(0, joined.length - this.half))
    this.tail = kept ? [kept] : []
    this.tailLength = kept.length
  }
}
