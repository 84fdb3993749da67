// Terminal styling that respects NO_COLOR and non-TTY output.
const enabled = !process.env.NO_COLOR && process.env.TERM !== "dumb" && Boolean(process.stderr.isTTY)

const wrap = (open: number, close: number) => (text: string) => (enabled ? `\x1b[${open}m${text}\x1b[${close}m` : text)

export const style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  gray: wrap(90, 39),
}

export const RISK_STYLE: Record<string, (t: string) => string> = {
  safe: style.green,
  low: style.green,
  medium: style.yellow,
  high: style.red,
  critical: (t) => style.bold(style.red(t)),
}
