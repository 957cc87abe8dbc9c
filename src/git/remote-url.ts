/**
 * Normalises a Git remote URL so that the ssh, https and scp forms of one remote converge, and so
 * that credentials never become part of an identity:
 *
 *   git@github.com:Owner/Repo.git, ssh://git@github.com:22/Owner/Repo, https://tok@github.com/Owner/Repo.git
 *     → github.com/owner/repo
 *
 * Host and path are lower-cased (GitHub, GitLab and Bitbucket treat them case-insensitively), the
 * default ports, a trailing `.git` and slashes are dropped. Local paths (`/srv/git/x.git`,
 * `file:///srv/git/x`) normalise to `file:/srv/git/x`.
 */
export function normaliseRemoteUrl(raw: string): string {
  const url = raw.trim()
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(url)
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return join(scp[1] ?? '', scp[2] ?? '')
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(url)
  if (!scheme) return `file:${trimPath(url)}`
  const protocol = (scheme[1] ?? '').toLowerCase()
  const rest = scheme[2] ?? ''
  if (protocol === 'file') return `file:${trimPath(rest.startsWith('/') ? rest : `/${rest}`)}`
  const slash = rest.indexOf('/')
  const authority = slash === -1 ? rest : rest.slice(0, slash)
  const path = slash === -1 ? '' : rest.slice(slash + 1)
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1)
  const [host = '', port] = hostPort.split(':')
  const keepPort = port !== undefined && port !== '' && !isDefaultPort(protocol, port)
  return join(keepPort ? `${host}:${port}` : host, path)
}

function join(host: string, path: string): string {
  return `${host.toLowerCase()}/${trimPath(path).replace(/^\/+/, '')}`.toLowerCase()
}

function trimPath(path: string): string {
  return path
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '')
}

function isDefaultPort(protocol: string, port: string): boolean {
  return (
    (protocol === 'ssh' && port === '22') ||
    (protocol === 'https' && port === '443') ||
    (protocol === 'http' && port === '80') ||
    (protocol === 'git' && port === '9418')
  )
}
