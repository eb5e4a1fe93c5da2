package organization

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

type orgBody struct {
	Name                          *string         `json:"name"`
	Slug                          *string         `json:"slug"`
	Logo                          *string         `json:"logo"`
	Metadata                      json.RawMessage `json:"metadata"`
	KeepCurrentActiveOrganization bool            `json:"keepCurrentActiveOrganization"`
}

func (b *orgBody) check(required bool) error {
	var f auth.Fields
	if required {
		f.Required("name", b.Name)
		f.Required("slug", b.Slug)
	}
	for name, v := range map[string]*string{"name": b.Name, "slug": b.Slug} {
		if v != nil && strings.TrimSpace(*v) == "" {
			f = append(f, "[body."+name+"] Too small: expected string to have >=1 characters")
		}
	}
	f.MaxLen("logo", b.Logo, 2048)
	if len(b.Metadata) > 0 && string(b.Metadata) != "null" && b.Metadata[0] != '{' {
		f = append(f, "[body.metadata] Invalid input: expected record")
	}
	return f.Err()
}

func metadataArg(m json.RawMessage) any {
	if len(m) == 0 || string(m) == "null" {
		return nil
	}
	return string(m)
}

// create makes an organization with the caller as its owner and (unless asked not to) makes
// it the session's active organization.
func (p *Plugin) create(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b orgBody
	if !auth.ReadJSON(w, r, &b, func() error { return b.check(true) }) {
		return
	}
	ctx := r.Context()
	if o, err := p.orgBy(ctx, *b.Slug, true); err != nil || o != nil {
		auth.WriteError(w, r, firstErr(err, errOrgExists))
		return
	}
	now := p.now()
	org := Organization{ID: newID(), Name: *b.Name, Slug: *b.Slug, Logo: b.Logo, CreatedAt: dbTime{now}, Metadata: json.RawMessage("null")}
	if metadataArg(b.Metadata) != nil {
		org.Metadata = b.Metadata
	}
	mem := Member{ID: newID(), OrganizationID: org.ID, UserID: c.User.ID, Role: creatorRole, CreatedAt: dbTime{now}}
	tx, err := p.db().BeginTx(ctx, nil)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, p.q(`insert into "organization" ("id", "name", "slug", "logo", "createdAt", "metadata") values (?, ?, ?, ?, ?, ?)`),
		org.ID, org.Name, org.Slug, org.Logo, p.st.Time(now), metadataArg(b.Metadata)); err != nil {
		auth.WriteError(w, r, errOrgExists) // the slug's unique index lost a race
		return
	}
	if _, err := tx.ExecContext(ctx, p.q(`insert into "member" ("id", "organizationId", "userId", "role", "createdAt") values (?, ?, ?, ?, ?)`),
		mem.ID, org.ID, mem.UserID, mem.Role, p.st.Time(now)); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	// With teams on, the plugin gives every new organization a default team named after it,
	// with the creator in it (and active, when the organization becomes active).
	team := Team{ID: newID(), Name: org.Name, OrganizationID: org.ID, CreatedAt: dbTime{now}}
	if _, err := tx.ExecContext(ctx, p.q(`insert into "team" (`+teamCols+`) values (?, ?, ?, ?, ?)`), team.ID, team.Name, team.OrganizationID, p.st.Time(now), nil); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if _, err := tx.ExecContext(ctx, p.q(`insert into "teamMember" ("id", "teamId", "userId", "createdAt") values (?, ?, ?, ?)`), newID(), team.ID, c.User.ID, p.st.Time(now)); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if err := tx.Commit(); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if !b.KeepCurrentActiveOrganization {
		err := p.activate(w, r, c, org.ID)
		if err == nil {
			err = p.activateTeam(w, r, c, team.ID)
		}
		if err != nil {
			auth.WriteError(w, r, err)
			return
		}
	}
	writeJSON(w, org.answer(map[string]any{"members": []Member{mem}}))
}

// answer is the organization as create and update answer it: metadata left out when there is
// none, as the plugin's adapter returns the row.
func (o *Organization) answer(extra map[string]any) map[string]any {
	out := map[string]any{"id": o.ID, "name": o.Name, "slug": o.Slug, "logo": o.Logo, "createdAt": o.CreatedAt}
	if len(o.Metadata) > 0 && string(o.Metadata) != "null" {
		out["metadata"] = o.Metadata
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// activate stores the active organization (nil clears it) and refreshes the session cookies so
// the session-data cookie carries it.
func (p *Plugin) activate(w http.ResponseWriter, r *http.Request, c *auth.Current, orgID any) error {
	if err := p.setActiveOrg(r.Context(), c.Session.ID, c.User.ID, orgID); err != nil {
		return err
	}
	if c.Session.Extra == nil {
		c.Session.Extra = map[string]any{}
	}
	c.Session.Extra["activeOrganizationId"], c.Session.Extra["activeTeamId"] = orgID, nil
	if !c.Bearer {
		p.auth.SetSessionCookies(w, r, c.Session, c.User, c.DontRemember)
	}
	return nil
}

func firstErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// gate finds the caller's membership of orgID (or the active organization) and checks perms
// (none: membership is enough). notMember is the error when the caller is not a member.
func (p *Plugin) gate(w http.ResponseWriter, r *http.Request, c *auth.Current, orgID string, perms Permissions, notMember, denied error) (*Member, bool) {
	if orgID == "" {
		orgID = activeOrg(c)
	}
	if orgID == "" {
		auth.WriteError(w, r, errNoActiveOrg)
		return nil, false
	}
	m, err := p.membership(r.Context(), orgID, c.User.ID)
	if err != nil || m == nil {
		auth.WriteError(w, r, firstErr(err, notMember))
		return nil, false
	}
	if perms != nil {
		ok, err := p.allowed(r.Context(), orgID, m.Role, perms)
		if err != nil || !ok {
			auth.WriteError(w, r, firstErr(err, denied))
			return nil, false
		}
	}
	return m, true
}

func (p *Plugin) update(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		Data           *orgBody `json:"data"`
		OrganizationID string   `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error {
		if b.Data == nil {
			return httpx.BadRequest("[body.data] Invalid input: expected object, received undefined")
		}
		return b.Data.check(false)
	}) {
		return
	}
	orgID := b.OrganizationID
	if orgID == "" && activeOrg(c) == "" {
		auth.WriteError(w, r, errOrgNotFound)
		return
	}
	m, ok := p.gate(w, r, c, orgID, Permissions{"organization": {"update"}}, errNotMemberBad, errCannotUpdateOrg)
	if !ok {
		return
	}
	ctx, d := r.Context(), b.Data
	if d.Slug != nil {
		if o, err := p.orgBy(ctx, *d.Slug, true); err != nil || (o != nil && o.ID != m.OrganizationID) {
			auth.WriteError(w, r, firstErr(err, errSlugTaken))
			return
		}
	}
	sets, args := []string{}, []any{}
	add := func(col string, v any) { sets = append(sets, `"`+col+`" = ?`); args = append(args, v) }
	if d.Name != nil {
		add("name", *d.Name)
	}
	if d.Slug != nil {
		add("slug", *d.Slug)
	}
	if d.Logo != nil {
		add("logo", *d.Logo)
	}
	if len(d.Metadata) > 0 {
		add("metadata", metadataArg(d.Metadata))
	}
	if len(sets) > 0 {
		if _, err := p.db().ExecContext(ctx, p.q(`update "organization" set `+strings.Join(sets, ", ")+` where "id" = ?`), append(args, m.OrganizationID)...); err != nil {
			auth.WriteError(w, r, errSlugTaken)
			return
		}
	}
	o, err := p.orgBy(ctx, m.OrganizationID, false)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, o.answer(nil))
}

func (p *Plugin) delete(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b struct {
		OrganizationID *string `json:"organizationId"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("organizationId", b.OrganizationID) }) {
		return
	}
	if *b.OrganizationID == "" {
		auth.WriteError(w, r, errOrgNotFound)
		return
	}
	m, ok := p.gate(w, r, c, *b.OrganizationID, Permissions{"organization": {"delete"}}, errNotMemberBad, errCannotDeleteOrg)
	if !ok {
		return
	}
	ctx := r.Context()
	o, err := p.orgBy(ctx, m.OrganizationID, false)
	if err != nil || o == nil {
		auth.WriteError(w, r, firstErr(err, errOrgNotFound))
		return
	}
	// Child rows go explicitly: SQLite only cascades with foreign keys switched on.
	err = p.deleteNamedInSessions(ctx, `"activeOrganizationId" = ?`, o.ID, withArg(o.ID,
		`delete from "teamMember" where "teamId" in (select "id" from "team" where "organizationId" = ?)`,
		`delete from "team" where "organizationId" = ?`, `delete from "invitation" where "organizationId" = ?`,
		`delete from "member" where "organizationId" = ?`, `delete from "organizationRole" where "organizationId" = ?`,
		`update "session" set "activeOrganizationId" = null, "activeTeamId" = null where "activeOrganizationId" = ?`,
		`delete from "organization" where "id" = ?`))
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if p.onDeleted != nil {
		if err := p.onDeleted(ctx, o.ID); err != nil {
			auth.WriteError(w, r, err)
			return
		}
	}
	if activeOrg(c) == o.ID {
		_ = p.activate(w, r, c, nil)
	}
	writeJSON(w, o)
}

func (p *Plugin) checkSlug(w http.ResponseWriter, r *http.Request) {
	if _, ok := p.caller(w, r); !ok {
		return
	}
	var b struct {
		Slug *string `json:"slug"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("slug", b.Slug) }) {
		return
	}
	o, err := p.orgBy(r.Context(), *b.Slug, true)
	if err != nil || o != nil {
		auth.WriteError(w, r, firstErr(err, errSlugTaken))
		return
	}
	auth.WriteStatus(w)
}

func (p *Plugin) setActive(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	var b map[string]json.RawMessage
	if !auth.ReadJSON(w, r, &b, nil) {
		return
	}
	var id, slug string
	idRaw, hasID := b["organizationId"]
	if hasID && string(idRaw) == "null" {
		if activeOrg(c) != "" {
			if err := p.activate(w, r, c, nil); err != nil {
				auth.WriteError(w, r, err)
				return
			}
		}
		writeJSON(w, nil)
		return
	}
	if (hasID && json.Unmarshal(idRaw, &id) != nil) || (b["organizationSlug"] != nil && json.Unmarshal(b["organizationSlug"], &slug) != nil) {
		auth.WriteError(w, r, httpx.BadRequest("[body.organizationId] Invalid input: expected string"))
		return
	}
	ctx := r.Context()
	if id == "" && slug == "" {
		if id = activeOrg(c); id == "" {
			writeJSON(w, nil)
			return
		}
	}
	if id == "" {
		o, err := p.orgBy(ctx, slug, true)
		if err != nil || o == nil {
			auth.WriteError(w, r, firstErr(err, errOrgNotFound))
			return
		}
		id = o.ID
	}
	m, err := p.membership(ctx, id, c.User.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if m == nil {
		_ = p.activate(w, r, c, nil)
		auth.WriteError(w, r, errNotMemberForb)
		return
	}
	o, err := p.orgBy(ctx, id, false)
	if err != nil || o == nil {
		auth.WriteError(w, r, firstErr(err, errOrgNotFound))
		return
	}
	if err := p.activate(w, r, c, o.ID); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, o)
}

func (p *Plugin) list(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	rows, err := p.db().QueryContext(r.Context(), p.q(`select o."id", o."name", o."slug", o."logo", o."createdAt", o."metadata" from "organization" o
		join "member" m on m."organizationId" = o."id" where m."userId" = ? order by o."createdAt", o."id"`), c.User.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	defer rows.Close()
	out := []*Organization{}
	for rows.Next() {
		o, err := scanOrg(rows)
		if err != nil {
			auth.WriteError(w, r, err)
			return
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		auth.WriteError(w, r, err)
		return
	}
	writeJSON(w, out)
}

// orgFromQuery resolves organizationSlug / organizationId / the active organization.
func (p *Plugin) orgFromQuery(r *http.Request, c *auth.Current) (*Organization, error) {
	q := r.URL.Query()
	if s := q.Get("organizationSlug"); s != "" {
		return p.orgBy(r.Context(), s, true)
	}
	id := q.Get("organizationId")
	if id == "" {
		id = activeOrg(c)
	}
	if id == "" {
		return nil, nil
	}
	return p.orgBy(r.Context(), id, false)
}

func queryInt(r *http.Request, name string, def, max int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, httpx.BadRequest("[query." + name + "] Invalid input: expected number")
	}
	return min(n, max), nil
}

func (p *Plugin) getFull(w http.ResponseWriter, r *http.Request) {
	c, ok := p.caller(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	if q.Get("organizationSlug") == "" && q.Get("organizationId") == "" && activeOrg(c) == "" {
		writeJSON(w, nil)
		return
	}
	limit, err := queryInt(r, "membersLimit", membershipLimit, membershipLimit)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	o, err := p.orgFromQuery(r, c)
	if err != nil || o == nil {
		auth.WriteError(w, r, firstErr(err, errOrgNotFound))
		return
	}
	ctx := r.Context()
	m, err := p.membership(ctx, o.ID, c.User.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if m == nil {
		if activeOrg(c) == o.ID {
			_ = p.activate(w, r, c, nil)
		}
		auth.WriteError(w, r, errNotMemberForb)
		return
	}
	members, _, err := p.members(ctx, o.ID, limit, 0)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	// Teams come with their member counts, as the plugin's join answers them.
	teams, err := p.teamsWithCounts(ctx, o.ID)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	// Invitation ids work as links: only members who may invite see them, and only the
	// creator role sees invitations granting it.
	invitations := []*Invitation{}
	if ok, err := p.allowed(ctx, o.ID, m.Role, Permissions{"invitation": {"create"}}); err != nil {
		auth.WriteError(w, r, err)
		return
	} else if ok {
		all, err := p.invitations(ctx, `"organizationId" = ?`, o.ID)
		if err != nil {
			auth.WriteError(w, r, err)
			return
		}
		for _, v := range all {
			if hasRole(m.Role, creatorRole) || v.Role == nil || !hasRole(*v.Role, creatorRole) {
				invitations = append(invitations, v)
			}
		}
	}
	writeJSON(w, map[string]any{"id": o.ID, "name": o.Name, "slug": o.Slug, "logo": o.Logo, "createdAt": o.CreatedAt,
		"metadata": o.Metadata, "members": members, "invitations": invitations, "teams": teams})
}
