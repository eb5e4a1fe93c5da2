package report

// found is one place a report's period or marketplace was read from.
type found struct {
	source      string
	period      *Period
	marketplace string
}

// resolve picks the period and marketplace: the first source that names one wins (file contents,
// then the file name, then the caller), and two sources that disagree reject the file, naming both.
func resolve(meta *Meta, opts Options, sources ...found) error {
	if opts.Period != nil {
		sources = append(sources, found{source: "the period you gave", period: opts.Period})
	}
	if opts.Marketplace != "" {
		m := NormalizeMarketplace(opts.Marketplace)
		if m == "" {
			return fileError("unknown marketplace %q: use a domain such as amazon.com or a code such as US", opts.Marketplace)
		}
		sources = append(sources, found{source: "the marketplace you gave", marketplace: m})
	}
	var pFrom, mFrom string
	for _, f := range sources {
		if f.period != nil {
			if pFrom == "" {
				meta.Period, pFrom = *f.period, f.source
			} else if !meta.Period.Equal(*f.period) {
				return fileError("the period in %s (%s) conflicts with %s (%s)", pFrom, meta.Period, f.source, *f.period)
			}
		}
		if f.marketplace != "" {
			if mFrom == "" {
				meta.Marketplace, mFrom = f.marketplace, f.source
			} else if meta.Marketplace != f.marketplace {
				return fileError("the marketplace in %s (%s) conflicts with %s (%s)", mFrom, meta.Marketplace, f.source, f.marketplace)
			}
		}
	}
	if pFrom == "" {
		return fileError("the file does not say which period it covers: give the period (for example 2026-04-05..2026-04-11)")
	}
	if mFrom == "" {
		return fileError("the file does not say which marketplace it is from: give the marketplace (for example amazon.com)")
	}
	return nil
}

func periodPtr(p Period) *Period { return &p }
