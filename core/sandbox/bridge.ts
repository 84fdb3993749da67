// `ccode __sandbox-bridge SOCKET PORT -- COMMAND...`: runs inside a sandbox that has a network
// namespace of its own (only loopback). It listens on 127.0.0.1:PORT there, carries every connection
// made to it to the proxy's unix socket (ccode, outside), then runs COMMAND and exits with its status.
// It forwards bytes only to that one socket: whatever a client sends, the proxy decides where it goes.
import { createConnection, createServer, type Socket } from "node:net"
import { constants } from "node:os"

/** How long a connection waits for the proxy's socket to appear (the proxy starts as the sandbox does). */
const SOCKET_WAIT_MS = 3000

export async function bridgeMain(argv: string[]): Promise<number> {
  const [socket, portText, dashes, ...command] = argv
  const port = Number(portText)
  if (!socket || !Number.isInteger(port) || port < 1 || port > 65535 || dashes !== "--" || !command.length) {
    console.error("usage: ccode __sandbox-bridge SOCKET PORT -- COMMAND... (internal: ccode starts it inside the sandbox)")
    return 2
  }
  const server = createServer((client) => carry(client, socket))
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen({ host: "127.0.0.1", port, exclusive: true }, () => resolve())
    })
  } catch (error) {
    console.error(`ccode sandbox: cannot listen on 127.0.0.1:${port} for the network proxy: ${(error as Error).message}`)
    return 126
  }
  const child = Bun.spawn(command, { stdio: ["inherit", "inherit", "inherit"] })
  // the sandbox's own signals (a timeout's SIGTERM reaching the namespace) go to the command too
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => child.kill(signal))
  const code = await child.exited
  server.close()
  return child.signalCode ? 128 + (constants.signals[child.signalCode as NodeJS.Signals] ?? 0) : code
}

function carry(client: Socket, socket: string, started = Date.now()): void {
  const upstream = createConnection(socket)
  upstream.once("error", (error: NodeJS.ErrnoException) => {
    const early = (error.code === "ENOENT" || error.code === "ECONNREFUSED") && Date.now() - started < SOCKET_WAIT_MS
    if (early && !client.destroyed) setTimeout(() => carry(client, socket, started), 20)
    else client.destroy()
  })
  upstream.once("connect", () => {
    client.pipe(upstream)
    upstream.pipe(client)
    client.on("error", () => upstream.destroy())
    upstream.on("error", () => client.destroy())
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
  })
  client.on("error", () => client.destroy())
}
