package trends

import "sync"

// DemoProgress is the demo workspace's first generation, which the server runs in the background
// on its first start (cli). Until it is done, the demo's dataset list says how far it is instead
// of showing half-built data, so the screens can say the demo is being generated.
type DemoProgress struct {
	mu          sync.Mutex
	building    bool
	week, weeks int
}

// Start marks the generation as begun.
func (p *DemoProgress) Start(weeks int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.building, p.week, p.weeks = true, 0, weeks
}

// Week records that week of weeks is in.
func (p *DemoProgress) Week(week, weeks int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.week, p.weeks = week, weeks
}

// Done marks the generation as ended (built or failed; a failure is logged by the caller).
func (p *DemoProgress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.building = false
}

// demoBuilding is the JSON the dataset list carries while the demo is generated.
type demoBuilding struct {
	Week  int `json:"week"`
	Weeks int `json:"weeks"`
}

func (p *DemoProgress) state() *demoBuilding {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.building {
		return nil
	}
	return &demoBuilding{Week: p.week, Weeks: p.weeks}
}
