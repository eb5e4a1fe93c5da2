// Shapes of the trends API (internal/trends, /api/openapi.json), shared by the features.
// permissions: what the caller's role grants on the workspace's dataset, watchlist and billing
// (an organization's roles; the personal workspace grants all, the demo reads).
export interface Workspace {
  id: string; name: string; kind: string; role: string; demo: boolean; readOnly: boolean
  slug?: string; logo?: string | null; permissions?: Record<string, string[]>
}
export interface Dataset { id: number; workspace: string; marketplace: string; kind: string; periods: number; latest: string | null }
export interface PeriodCoverage { start: string; end: string; rows: number; deepestRank: number; layout: string; sourceName: string; termsWithProducts: number[]; importedAt: string; importedBy: string }
// gaps' keys were PascalCase before the API went camelCase; both are read.
export interface Gap { start?: string; end?: string; Start?: string; End?: string }
export interface Summary { dataset: Dataset; periods: PeriodCoverage[]; latest: PeriodCoverage | null; gaps: Gap[]; newComparedPeriods?: number; hiddenPeriods?: number }
export interface TermRow {
  term: string; rank: number; ranksAgo: (number | null)[]; changes: (number | null)[]; periodsPresent: number
  new: boolean; breakout: boolean; clickConcentration: number | null; conversionConcentration: number | null
  seasonality: number | null; comingUp: number | null; spark: (number | null)[]; topBrand?: string; topCategory?: string; topAsin?: string
}
export interface Page { total: number; rows: TermRow[]; newComparedPeriods?: number }
// periodsCompared (how many earlier periods "new" was judged against) comes with newer servers.
export interface Overview { summary: Summary; window: number; demo: boolean; risers: Page; fallers: Page; new: Page & { periodsCompared?: number }; breakouts: Page; comingUp: Page; periodsCompared?: number }
export interface ProductShare { asin: string; title?: string; clickShare: number | null; conversionShare: number | null; closerRatio?: number | null }
export interface HistoryPoint { start: string; rank: number | null; loaded: boolean; products?: ProductShare[]; brands?: string[]; categories?: string[] }
export interface TermHistory { term: string; found: boolean; points: HistoryPoint[] }
export interface Estimate { label: string; assumptions: string }
export interface ShareAt { start: string; rank: number; slot: number; clickShare: number | null; conversionShare: number | null; closerRatio?: number | null }
export interface Presence { key: string; title?: string; terms: { term: string; latestRank: number; points: ShareAt[] }[] }
