package warehouse

// The named steps of an import's commit and of the background work after it. A kill -9 at
// any of them must leave each dataset as it was before the import or as it is after it: the
// period, its facts, the dictionaries and the measures are written in one DuckDB transaction
// (committed between StepMeasures and StepCommitted), and what the background work writes
// (seasonality, the next week's inputs, the term-ordered copy) is derived from committed
// periods and rebuilt when missing or stale (ResumeCopies at start-up, afterImport).
const (
	StepStaged     = "staged"     // the rows are staged; nothing of the dataset written yet
	StepLoaded     = "loaded"     // dictionaries, facts and period record written, uncommitted
	StepMeasures   = "measures"   // the measures written too; the commit comes next
	StepCommitted  = "committed"  // the import committed; the background work not yet started
	StepBackground = "background" // background: seasonality and next inputs, about to commit
	StepCopy       = "copy"       // background: about to extend or rebuild the term-ordered copy
)

// OnStep sets a function called at each named step (DEBUG_IMPORT_PAUSE_AT uses it to stop an
// import there, so a test can kill the process at that exact point). Set it before importing.
func (w *Warehouse) OnStep(f func(step string)) { w.stepHook = f }

func (w *Warehouse) at(step string) {
	if w.stepHook != nil {
		w.stepHook(step)
	}
}
