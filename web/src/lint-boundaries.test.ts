// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { ESLint } from 'eslint'

// The lint configuration is the fence between features; these cases prove it refuses what it
// must (a feature importing another, shared code importing a feature, a cycle) and allows a
// route composing two features.
const eslint = new ESLint()
const ruleIds = async (file: string, code: string) => (await eslint.lintText(code, { filePath: file }))[0].messages.map((m) => m.ruleId)

describe('import boundaries', () => {
  it('refuses a feature importing another feature', async () => {
    const ids = await ruleIds('src/features/trends/components/probe.tsx', "import { WatchButton } from '../../watchlists/components/watch-button'\nexport const p = WatchButton\n")
    expect(ids).toContain('import/no-restricted-paths')
  })
  it('refuses shared code importing a feature', async () => {
    const ids = await ruleIds('src/lib/probe.ts', "import { Explore } from '../features/trends/components/explore'\nexport const p = Explore\n")
    expect(ids).toContain('import/no-restricted-paths')
  })
  it('allows a route to compose features', async () => {
    const ids = await ruleIds('src/routes/probe.tsx', "import { WatchButton } from '../features/watchlists/components/watch-button'\nimport { Explore } from '../features/trends/components/explore'\nexport const p = [WatchButton, Explore]\n")
    expect(ids).not.toContain('import/no-restricted-paths')
  })
  it('refuses a cycle', async () => {
    // selection.ts imports datasets.ts; importing selection back from a file datasets.ts
    // imports would close a loop, so the probe pretends to be lib/api-client.ts.
    const ids = await ruleIds('src/lib/api-client.ts', "import { useSelection } from './selection'\nexport const p = useSelection\n")
    expect(ids).toContain('import/no-cycle')
  })
}, 60_000)
