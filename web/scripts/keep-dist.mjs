// Vite empties dist/ on every build; Go embeds dist/ and needs it to hold at least one file
// even before the first build, so the placeholder is written back.
import { writeFileSync } from 'node:fs'
writeFileSync(new URL('../dist/.keep', import.meta.url), '')
