// Text from steps, files and models is shown at the person's terminal: it must never drive the
// terminal. Escape sequences (title, clipboard OSC 52, cursor moves, screen clears) and control
// characters are removed; colours (SGR) are kept only where asked. Pure.

// CSI (ESC [ ... final), OSC / DCS / APC / PM / SOS strings (up to BEL or ESC \), other ESC pairs,
// and their 8-bit C1 forms
const SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|[\x1b][\]P_^X][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|[\x90\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g
const SGR = /^\x1b\[[0-9;:]*m$/
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g

/** `keepColour`: colour sequences pass (the line log shows tools' colours); everything else goes. Newlines and tabs stay. */
export function terminalSafe(text: string, keepColour = false): string {
  return text.replace(SEQUENCE, (seq) => (keepColour && SGR.test(seq) ? seq : "")).replace(CONTROL, (c) => (keepColour && c === "\x1b" ? c : ""))
}
