import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { test } from 'node:test'

/**
 * The tree is feature-first (docs/architecture.md): each feature is a folder under src/ with its
 * layers inside (`src/room/{protocol,core,store,services}`); adapters (git, agents), the kernel
 * (shared, config, store) and the entry points (hooks, mcp, daemon, serve, ui, install, cli) are
 * folders of their own. Each agent vendor is one folder of agents/ with the layers it needs inside
 * (`src/agents/codex/{core,store,services,hooks,install}`) and its descriptor and transcript reader
 * on top. A file's layer is the folder inside its feature or its vendor, or its top folder
 * elsewhere. Imports flow one way between layers: a file may import its own layer and any layer of
 * a lower rank (of any feature); layers of equal rank do not import each other.
 */
const rank: Record<string, number> = {
  shared: 0,
  protocol: 1,
  core: 2,
  config: 3,
  store: 4,
  agents: 4,
  git: 4,
  services: 5,
  hooks: 6,
  mcp: 6,
  daemon: 6,
  serve: 6,
  ui: 6,
  install: 7,
  cli: 8,
}

/** The features, each a folder of src/ holding some of these layers. */
const featureFolders = [
  'delivery',
  'hook-work',
  'identity',
  'lanes',
  'leases',
  'memory',
  'options',
  'own-files',
  'project',
  'records',
  'room',
  'secrets',
  'sync',
] as const
const featureLayers = ['protocol', 'core', 'store', 'services'] as const
/** The layers a vendor folder (src/agents/<vendor>/) may hold; its own files are of the agents layer. */
const vendorLayers = ['core', 'store', 'services', 'hooks', 'install'] as const

/**
 * Inside a layer, features import each other only along the edges declared here. A feature is
 * named by its folder and any folders below its layer (`room/records` for
 * src/room/store/records/room-message.ts); outside features, by the path below the top folder
 * (`commands/setup`), `''` being the top folder's own files. Every file may import its own
 * feature, the folders that contain it and the features listed for it. A new folder fails the
 * test until it is declared.
 */
const features: Record<string, Record<string, readonly string[]>> = {
  shared: { '': [] },
  protocol: {
    delivery: [],
    // Who acts: a human, or an agent session acting for one.
    identity: [],
    lanes: [],
    // Each feature's records are built on the record type of records/ (which names who acted).
    'lanes/records': ['records'],
    // A lease's holder is an actor; it carries its auto-lease rung.
    leases: ['identity', 'options'],
    'leases/records': ['records'],
    memory: [],
    'memory/records': ['records'],
    // The rungs every rule and rung-typed option takes (a lease's auto-lease rung among them).
    options: [],
    // The board's answer gathers the room's columns and the lanes' part; a claim's, the lease's outcome.
    project: ['lanes', 'leases', 'room'],
    // What every record is: its id, stamp, actor and served shape (defineRecordType).
    records: ['identity'],
    // The room's payloads: presence, messages, threads, rules (their rungs are options'), which
    // tags wake a session, machines (their names' shape is identity's).
    room: ['identity', 'options'],
    'room/records': ['records'],
    // record.ts derives the record unions from the one definition per type, in each feature.
    sync: [
      'identity',
      'lanes/records',
      'leases',
      'leases/records',
      'memory/records',
      'records',
      'room/records',
    ],
  },
  core: {
    delivery: [],
    identity: [],
    // Lane settings are project options.
    lanes: ['options'],
    // The lease lines of the brief are a brief section; the actor is a session; settings are options.
    leases: ['identity', 'memory', 'options'],
    memory: ['identity'],
    options: [],
    // sangam's own files in a checkout (hook files, .mcp.json, lane instructions) and our entries in them.
    'own-files': [],
    // option-catalog.ts lists every feature's project options.
    project: ['lanes', 'leases', 'options', 'room', 'sync'],
    // The room's rules read presence and worktrees; its rungs are project options; a message with a
    // secret in it is refused by the scrubber's verdict. The rule catalog maps lease-collision onto
    // the lease group's auto-lease option; delivery's wake-on-tag is a room option (room/protocol).
    room: ['leases', 'options', 'secrets'],
    secrets: [],
    sync: ['options'],
  },
  config: { '': [] },
  store: {
    // The kernel's store knows no feature: whoever opens a database hands it the schema.
    '': [],
    delivery: [],
    lanes: [],
    // Each feature's record appliers implement the applier seam of records/.
    'lanes/records': ['records'],
    leases: [],
    'leases/records': ['records'],
    memory: [],
    'memory/records': ['records'],
    // The project's schema is every feature's (and vendor's) steps, in the order they were released.
    project: ['agents', 'delivery', 'lanes', 'leases', 'memory', 'room', 'sync'],
    // How a replica takes in one record type (the applier seam).
    records: [],
    room: [],
    'room/records': ['records'],
    // What a `sangam serve` data dir holds (its project objects' own rows).
    server: [],
    // The inbound applier dispatches each record type to its feature's applier.
    sync: [
      'lanes/records',
      'leases',
      'leases/records',
      'memory',
      'memory/records',
      'records',
      'room/records',
    ],
  },
  // The registry (vendors.ts, transcript-readers.ts) lists every vendor; see declaredFeatures.
  agents: {},
  git: { '': [] },
  services: {
    // Delivery reads the room (sessions, messages, presence), machines' names and its options; it
    // wakes a live session through its vendor.
    delivery: ['agents', 'identity', 'options', 'room'],
    // Hook work kept for afterwards is done with the lease use cases (decided by the project's
    // arbiter) and the room's presence.
    'hook-work': ['leases', 'project', 'room'],
    identity: [],
    // Lanes: lane settings are project options; the lanes section plugs into the brief.
    lanes: ['memory', 'options'],
    // The lease section plugs into the brief; settings are options. A team's server arbitrates
    // through the LeaseArbiter seam, chosen in project/services/lease-arbiter.ts.
    leases: ['identity', 'memory', 'options'],
    // A backfill first brings opencode's journal of its database up to date (a vendor's services).
    memory: ['agents', 'identity'],
    options: [],
    // sangam's entries written into the hosts' own files (hook files, config files), and where the
    // installed hooks find sangam: below the vendors' installers that write them.
    'own-files': [],
    // The project composes the features: opening a project, the brief's sections, the board, lanes
    // with delivery and the team, the claim forecast, who arbitrates leases, every option by name.
    project: ['delivery', 'identity', 'lanes', 'leases', 'memory', 'options', 'room', 'sync'],
    // The room's directory, presence, handles and targets; its house rules are project options
    // and a section of the brief; targets ask Claude Code which of its sessions are live.
    room: ['agents', 'identity', 'memory', 'options'],
    // Team sync carries leases and notes, adds its sections to the brief (naming machines as the
    // room labels them), and has its options; it holds the team's integration lock (the lanes'
    // IntegrationLock seam).
    sync: ['lanes', 'leases', 'memory', 'options', 'room'],
  },
  // The agent hooks mark a Codex session's app-server endpoint; the wake waiter is Claude Code's.
  hooks: { '': ['agents'] },
  mcp: { '': [] },
  daemon: { '': [] },
  serve: { '': [] },
  ui: { '': [] },
  // install-hooks writes Codex's hooks, trust and sandbox settings through Codex's installer.
  install: { '': ['agents'] },
  cli: {
    // registry.ts lists every command.
    '': [
      'commands/delivery',
      'commands/lanes',
      'commands/leases',
      'commands/memory',
      'commands/room',
      'commands/server',
      'commands/setup',
      'commands/ui',
    ],
    commands: [],
    'commands/delivery': [],
    'commands/lanes': [],
    'commands/leases': [],
    'commands/memory': [],
    'commands/room': [],
    'commands/server': [],
    // `up --ui` runs the dashboard beside the daemon.
    'commands/setup': ['commands/ui'],
    'commands/ui': [],
  },
}

/**
 * The declared features of a layer, with the vendors' folders declared alike: in the agents layer
 * each vendor (`codex`) imports no other vendor and the registry (`''`) imports them all; in the
 * others, each vendor's folder (`agents/codex` for src/agents/codex/services/) imports no feature
 * of its layer, and an edge to `agents` is an edge to every vendor. A new vendor is declared by
 * its folder alone.
 */
function declaredFeatures(layer: string): Record<string, readonly string[]> {
  const vendors = vendorFolders()
  if (layer === 'agents')
    return { '': vendors, ...Object.fromEntries(vendors.map((vendor) => [vendor, []])), ...features.agents }
  const here = vendors.filter((vendor) => existsSync(join(src, 'agents', vendor, layer)))
  if (here.length === 0) return features[layer] ?? {}
  return {
    agents: [],
    ...Object.fromEntries(here.map((vendor) => [`agents/${vendor}`, []])),
    ...features[layer],
  }
}

/**
 * Pairs of features that import each other along declared edges (in one layer or across two).
 * Each was a debt to pay (issue 21) and all are paid: the list may only stay empty. A pair that
 * seems needed is a concept in the wrong feature (see how the record type moved to records/, the
 * rungs to options/, wake-on-tag to the room, and the lease arbiter's choice to project/).
 */
const knownMutualFeatures: readonly string[] = []

/**
 * Time, randomness and the process environment come in through injection (house style): only
 * these files touch `Date.now`, `new Date()`, `Math.random`, the crypto random sources or
 * `process.env`. Everyone else takes a `Clock`, a `Random` or an `Environment`.
 */
const ambientAllowed: Record<string, string> = {
  'src/shared/clock.ts': 'owns the clock: systemClock',
  'src/shared/random.ts': 'owns randomness: systemRandom (jitter, ids, keys)',
  'src/config/git-environment.ts': 'owns the environment git children inherit',
  'src/cli/main.ts': "the CLI's composition root (env read once at start)",
  'src/hooks/agent-hook-main.ts':
    "the agent hooks' composition root (own bundle; env and clock once per run)",
  'src/hooks/pre-push-main.ts': "the git pre-push hook's composition root",
  'src/hooks/claude-wake-main.ts': "the Claude Code wake waiter's composition root (own bundle)",
  'src/mcp/mcp-main.ts': "the MCP server's composition root, the hosts' entry (own bundle; env read once)",
  'server/src/project-object.ts': "the Durable Object, the server's composition root: the clock per request",
  'server/src/worker.ts': 'the Worker entry: the clock of its failed-authentication limit and of creations',
}

const ambientPatterns: readonly [string, RegExp][] = [
  ['Date.now', /\bDate\.now\b/],
  ['new Date()', /\bnew Date\(\s*\)/],
  ['Math.random', /\bMath\.random\b/],
  ['randomUUID', /\brandomUUID\b/],
  ['randomBytes', /\brandomBytes\b/],
  ['getRandomValues', /\bgetRandomValues\b/],
  ['process.env', /\bprocess\.env\b/],
]

const root = join(import.meta.dirname, '..')
const src = join(root, 'src')
const serverSrc = join(root, 'server', 'src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [entry.name, ...folders(join(dir, entry.name)).map((sub) => `${entry.name}/${sub}`)])
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g)]
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)]
  return [...specifiers, ...dynamic].map((match) => match[1] ?? '')
}

/** The files `file` imports by relative path, resolved. */
function relativeImports(file: string): string[] {
  return importsOf(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => join(dirname(file), specifier))
}

const isTest = (file: string): boolean => file.endsWith('.test.ts')
const isFeature = (top: string): boolean => (featureFolders as readonly string[]).includes(top)
/** src/ split into its folders: `['room', 'store', 'records']` for src/room/store/records/x.ts. */
const foldersOf = (file: string): string[] => relative(src, dirname(file)).split(sep)
/** A layer folder inside a vendor folder: `services` for src/agents/codex/services/x.ts. */
const isVendorLayer = (top: string, layer: string | undefined): boolean =>
  top === 'agents' && (vendorLayers as readonly string[]).includes(layer ?? '')
/**
 * `store` for src/room/store/room-table.ts, `services` for src/agents/codex/services/codex-wake.ts,
 * `agents` for src/agents/codex/codex-reader.ts, `cli` for src/cli/commands/setup/init.ts.
 */
function layerOf(file: string): string {
  const [top = '', inner = '', third] = foldersOf(file)
  if (isVendorLayer(top, third)) return third ?? ''
  return isFeature(top) ? inner : top
}
/**
 * `room/records` for src/room/store/records/x.ts; `agents/codex` for
 * src/agents/codex/services/codex-wake.ts; `codex` for src/agents/codex/codex-reader.ts;
 * `commands/setup` for src/cli/commands/setup/init.ts.
 */
function featureOf(file: string): string {
  const [top = '', inner = '', third, ...deeper] = foldersOf(file)
  if (isVendorLayer(top, third)) return [top, inner, ...deeper].join('/')
  const below = third === undefined ? [] : [third, ...deeper]
  return isFeature(top) ? [top, ...below].join('/') : foldersOf(file).slice(1).join('/')
}
/** The vendor folders of src/agents/. */
function vendorFolders(): string[] {
  const dir = join(src, 'agents')
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
}
/** Every folder of a layer, named as featureOf names them. */
function featuresPresent(layer: string): string[] {
  const own = (existsSync(join(src, layer)) ? folders(join(src, layer)) : []).filter(
    (folder) => !(layer === 'agents' && isVendorLayer('agents', folder.split('/')[1])),
  )
  const inVendors = vendorFolders().flatMap((vendor) => {
    const dir = join(src, 'agents', vendor, layer)
    const name = `agents/${vendor}`
    return existsSync(dir) ? [name, ...folders(dir).map((sub) => `${name}/${sub}`)] : []
  })
  if (inVendors.length > 0) inVendors.unshift('agents')
  if (!(featureLayers as readonly string[]).includes(layer)) return [...own, ...inVendors]
  const inFeatures = featureFolders.flatMap((feature) => {
    const dir = join(src, feature, layer)
    return existsSync(dir) ? [feature, ...folders(dir).map((sub) => `${feature}/${sub}`)] : []
  })
  return [...own, ...inVendors, ...inFeatures]
}
const contains = (folder: string, feature: string): boolean =>
  folder === '' || feature === folder || feature.startsWith(`${folder}/`)

/** Source without comments, so a comment that names `process.env` is not a use of it. */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1')
}

test('a vendor folder holds its own files and only the vendor layers', () => {
  for (const vendor of vendorFolders()) {
    for (const entry of readdirSync(join(src, 'agents', vendor), { withFileTypes: true }))
      assert.ok(
        !entry.isDirectory() || (vendorLayers as readonly string[]).includes(entry.name),
        `src/agents/${vendor}/${entry.name}: a vendor folder holds only its layers (${vendorLayers.join(', ')})`,
      )
  }
})

test('every folder under src/ is a feature or has a rank, and a feature holds only layers', () => {
  const tops = readdirSync(src, { withFileTypes: true }).filter((entry) => entry.isDirectory())
  for (const { name } of tops) {
    if (!isFeature(name)) {
      assert.ok(name in rank, `src/${name} is neither a feature nor a ranked folder in this test`)
      continue
    }
    const inside = readdirSync(join(src, name), { withFileTypes: true })
    for (const entry of inside)
      assert.ok(
        entry.isDirectory() && (featureLayers as readonly string[]).includes(entry.name),
        `src/${name}/${entry.name}: a feature holds only its layers (${featureLayers.join(', ')})`,
      )
  }
})

test('imports between src/ folders flow one way', () => {
  const violations: string[] = []
  for (const file of sourceFiles(src)) {
    if (isTest(file)) continue
    const from = layerOf(file)
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue
      const target = layerOf(join(file, '..', specifier))
      if (target === from) continue
      const allowed = (rank[target] ?? 99) < (rank[from] ?? -1)
      if (!allowed) violations.push(`${relative(root, file)} imports ${target}/ (${specifier})`)
    }
  }
  assert.deepEqual(violations, [])
})

test('every folder inside a layer is a declared feature, and every declared feature exists', () => {
  const problems: string[] = []
  for (const layer of Object.keys(rank)) {
    const declared = layer in features ? declaredFeatures(layer) : undefined
    if (declared === undefined) {
      problems.push(`src/${layer} has no entry in features`)
      continue
    }
    const present = featuresPresent(layer)
    for (const folder of present) {
      if (!(folder in declared)) problems.push(`${folder} (${layer}) is not a declared feature of ${layer}`)
    }
    for (const [feature, edges] of Object.entries(declared)) {
      if (feature !== '' && !present.includes(feature))
        problems.push(`feature ${layer}/${feature} is declared but has no folder`)
      for (const edge of edges) {
        if (!(edge in declared))
          problems.push(`${layer}/${feature || '.'} may import ${edge}, which is undeclared`)
      }
    }
  }
  assert.deepEqual(problems, [])
})

test('features of a layer import each other only along declared edges', () => {
  const violations: string[] = []
  for (const file of sourceFiles(src)) {
    if (isTest(file)) continue
    const layer = layerOf(file)
    const from = featureOf(file)
    const allowed = declaredFeatures(layer)[from] ?? []
    for (const target of relativeImports(file)) {
      if (layerOf(target) !== layer) continue
      const to = featureOf(target)
      if (contains(to, from) || allowed.some((edge) => contains(edge, to))) continue
      violations.push(`${relative(root, file)} (${layer}/${from || '.'}) imports ${layer}/${to || '.'}`)
    }
  }
  assert.deepEqual(violations, [])
})

test('features import each other one way, but for the known pairs, which may only go', () => {
  const edges = new Set(
    Object.keys(features)
      .map(declaredFeatures)
      .flatMap((declared) =>
        Object.entries(declared).flatMap(([from, targets]) => targets.map((to) => `${from} -> ${to}`)),
      ),
  )
  const mutual = [...edges]
    .map((edge) => edge.split(' -> ') as [string, string])
    .filter(([from, to]) => from < to && edges.has(`${to} -> ${from}`))
    .map(([from, to]) => `${from} <-> ${to}`)
    .sort()
  assert.deepEqual(mutual, [...knownMutualFeatures].sort())
})

test('no import cycles among src/ files', () => {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(src)) {
    if (isTest(file)) continue
    graph.set(
      file,
      relativeImports(file).filter((target) => existsSync(target)),
    )
  }
  const cycles: string[] = []
  const done = new Set<string>()
  const path: string[] = []
  const onPath = new Set<string>()
  const visit = (file: string): void => {
    if (done.has(file)) return
    if (onPath.has(file)) {
      const cycle = [...path.slice(path.indexOf(file)), file].map((entry) => relative(src, entry))
      cycles.push(cycle.join(' -> '))
      return
    }
    onPath.add(file)
    path.push(file)
    for (const target of graph.get(file) ?? []) visit(target)
    path.pop()
    onPath.delete(file)
    done.add(file)
  }
  for (const file of [...graph.keys()].sort()) visit(file)
  assert.deepEqual(cycles, [])
})

test('time, randomness and the environment are read only where they are owned', () => {
  const violations: string[] = []
  const files = [...sourceFiles(src), ...sourceFiles(serverSrc)].filter((file) => !isTest(file))
  for (const file of files) {
    const name = relative(root, file)
    if (name in ambientAllowed) continue
    const text = code(file)
    for (const [what, pattern] of ambientPatterns) {
      if (pattern.test(text)) violations.push(`${name} uses ${what}`)
    }
  }
  assert.deepEqual(violations, [])
})

test('every file allowed to read time, randomness or the environment exists and does', () => {
  for (const [name, reason] of Object.entries(ambientAllowed)) {
    const file = join(root, name)
    assert.ok(existsSync(file), `${name} (${reason}) is allowed but does not exist`)
    const text = code(file)
    assert.ok(
      ambientPatterns.some(([, pattern]) => pattern.test(text)),
      `${name} (${reason}) is allowed but reads none of them: drop it from the list`,
    )
  }
})

test('paths under the data directory are computed only in config/data-paths.ts', () => {
  const names =
    /['"`](sangam\.db|daemon\.json|sync\.json|hook-heartbeat|hook-locators\.json|serve\.lock)['"`]|sangamHome,\s*['"`]/
  const violations = sourceFiles(src)
    .filter((file) => !isTest(file) && relative(root, file) !== 'src/config/data-paths.ts')
    .filter((file) => names.test(code(file)))
    .map((file) => relative(root, file))
  assert.deepEqual(violations, [])
})

test('protocol/, core/ and shared/ import no Node builtins and no packages but zod', () => {
  const violations: string[] = []
  for (const file of sourceFiles(src)) {
    if (!['protocol', 'core', 'shared'].includes(layerOf(file)) || isTest(file)) continue
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.') || specifier === 'zod') continue
      violations.push(`${relative(root, file)} imports ${specifier}`)
    }
  }
  assert.deepEqual(violations, [])
})

test('SQL lives only in store/ folders', () => {
  const violations: string[] = []
  for (const file of sourceFiles(src)) {
    // An adapter reading a vendor's own database keeps its SQL in a store/ folder of its own.
    if (layerOf(file) === 'store' || foldersOf(file).at(-1) === 'store' || isTest(file)) continue
    const text = readFileSync(file, 'utf8')
    if (/\.prepare\(|\.exec\(\s*['"`/]|\bpragma\(/.test(text)) violations.push(relative(root, file))
  }
  assert.deepEqual(violations, [])
})

test('the server imports only protocol/, core/ and shared/ from src/', () => {
  const violations: string[] = []
  for (const file of sourceFiles(serverSrc)) {
    for (const specifier of importsOf(file)) {
      if (!specifier.includes('/src/')) continue
      const target = layerOf(join(src, specifier.split('/src/')[1] ?? ''))
      if (!['protocol', 'core', 'shared'].includes(target))
        violations.push(`${relative(root, file)} imports ${specifier}`)
    }
  }
  assert.deepEqual(violations, [])
})

test("the browser app takes only types from src/: its features' view schemas, by `import type`", () => {
  const violations: string[] = []
  for (const file of sourceFiles(join(root, 'web'))) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(
      /(?:^|\n)\s*(import|export)(\s+type)?\s[^'"]*?from\s+['"]([^'"]+)['"]/g,
    )) {
      const [, , typeOnly, specifier = ''] = match
      if (!specifier.includes('/src/')) continue
      const target = layerOf(join(src, specifier.split('/src/')[1] ?? ''))
      if (typeOnly === undefined || !['protocol', 'shared'].includes(target))
        violations.push(`${relative(root, file)} imports ${specifier}`)
    }
  }
  assert.deepEqual(violations, [])
})
