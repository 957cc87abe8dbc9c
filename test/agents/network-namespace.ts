import { spawnSync } from 'node:child_process'
import { createSocket } from 'node:dgram'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The real CLIs run in fresh network and mount namespaces (`unshare -n -m`) where only loopback
 * exists and /etc/resolv.conf points at a DNS sink on 127.0.0.1:53 that answers NXDOMAIN and
 * records each name asked for. No packet can leave the machine, and any lookup a CLI attempts is
 * visible, so the suite can insist there were none.
 */
export type Preflight = { readonly ok: true } | { readonly ok: false; readonly reason: string }

export function preflight(): Preflight {
  if (process.platform !== 'linux')
    return { ok: false, reason: `network namespaces need Linux (this is ${process.platform})` }
  if (process.getuid?.() !== 0)
    return { ok: false, reason: 'network namespaces need root (unshare -n -m); run as root' }
  for (const tool of ['unshare', 'ip', 'mount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      return { ok: false, reason: `${tool} is not installed` }
  }
  const probe = spawnSync('unshare', ['-n', '-m', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8' })
  if (probe.status !== 0)
    return { ok: false, reason: `unshare -n -m failed: ${probe.stderr.trim() || probe.error?.message}` }
  return { ok: true }
}

/** Runs `command` inside new namespaces with loopback up and resolv.conf pointing at 127.0.0.1. */
export function runInNamespace(command: readonly string[], env: NodeJS.ProcessEnv): number {
  const dir = mkdtempSync(join(tmpdir(), 'sangam-netns-'))
  const resolv = join(dir, 'resolv.conf')
  writeFileSync(resolv, 'nameserver 127.0.0.1\noptions attempts:1 timeout:1\n')
  const script = 'ip link set lo up && mount --bind "$0" /etc/resolv.conf && exec "$@"'
  const result = spawnSync('unshare', ['-n', '-m', 'sh', '-c', script, resolv, ...command], {
    stdio: 'inherit',
    env,
  })
  return result.status ?? 1
}

/** True when the only network interface is loopback. */
export function isIsolated(): boolean {
  return Object.keys(networkInterfaces()).every((name) => name === 'lo')
}

export interface DnsSink {
  /** Names looked up so far. */
  readonly lookups: readonly string[]
  close(): Promise<void>
}

export function startDnsSink(): Promise<DnsSink> {
  const lookups: string[] = []
  const socket = createSocket('udp4')
  socket.on('message', (message, remote) => {
    const question = readQuestion(message)
    if (question === null) return
    lookups.push(question.name)
    const reply = Buffer.from(message.subarray(0, question.end))
    reply[2] = 0x81 | ((message[2] ?? 0) & 0x01) // a response; recursion-desired copied
    reply[3] = 0x83 // recursion available; NXDOMAIN
    reply.writeUInt16BE(1, 4)
    reply.writeUInt32BE(0, 6)
    reply.writeUInt16BE(0, 10)
    socket.send(reply, remote.port, remote.address)
  })
  return new Promise((resolve, reject) => {
    socket.once('error', reject)
    socket.bind(53, '127.0.0.1', () =>
      resolve({ lookups, close: () => new Promise((done) => socket.close(() => done())) }),
    )
  })
}

function readQuestion(message: Buffer): { name: string; end: number } | null {
  const labels: string[] = []
  let index = 12
  while (index < message.length && message[index] !== 0) {
    const length = message[index] ?? 0
    labels.push(message.subarray(index + 1, index + 1 + length).toString('latin1'))
    index += length + 1
  }
  return index + 5 <= message.length ? { name: labels.join('.'), end: index + 5 } : null
}
