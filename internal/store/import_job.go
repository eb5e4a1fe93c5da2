package store

import (
	"context"
	"fmt"
	"time"
)

// ImportJob is an import's durable record: what the trends job runner needs to show it and,
// after a restart, to resume or fail it. Options and Detail are the runner's own JSON.
type ImportJob struct {
	ID, Workspace, UserID string
	Source                string // upload | cli
	State                 string // queued | running | done | failed
	Runner                string // host:DATA_DIR of the process that runs it
	Path                  string // the file being imported
	Options, Detail       []byte
	CreatedAt, UpdatedAt  time.Time
}

// SaveImportJob writes the job's current record (insert or replace).
func (s *Store) SaveImportJob(ctx context.Context, j ImportJob) error {
	_, err := s.exec(ctx, `insert into "importJob" ("id", "workspaceId", "userId", "source", "state", "runner", "path", "options", "detail", "createdAt", "updatedAt")
		values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		on conflict ("id") do update set "state" = excluded."state", "detail" = excluded."detail", "updatedAt" = excluded."updatedAt"`,
		j.ID, j.Workspace, j.UserID, j.Source, j.State, j.Runner, j.Path, string(j.Options), string(j.Detail),
		s.dialect.timeArg(j.CreatedAt), s.dialect.timeArg(j.UpdatedAt))
	if err != nil {
		return fmt.Errorf("import job: save: %w", err)
	}
	return nil
}

// ImportJobs lists a workspace's most recent jobs, newest first.
func (s *Store) ImportJobs(ctx context.Context, workspace string, limit int) ([]ImportJob, error) {
	return s.importJobs(ctx, `where "workspaceId" = ? order by "createdAt" desc, "id" limit ?`, workspace, limit)
}

// UnfinishedImportJobs lists the jobs a runner left queued or running, oldest first.
func (s *Store) UnfinishedImportJobs(ctx context.Context, runner string) ([]ImportJob, error) {
	return s.importJobs(ctx, `where "runner" = ? and "state" in ('queued', 'running') order by "createdAt", "id"`, runner)
}

func (s *Store) importJobs(ctx context.Context, where string, args ...any) ([]ImportJob, error) {
	rows, err := s.query(ctx, `select "id", "workspaceId", "userId", "source", "state", "runner", "path", "options", "detail", "createdAt", "updatedAt"
		from "importJob" `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("import job: list: %w", err)
	}
	defer rows.Close()
	var out []ImportJob
	for rows.Next() {
		var j ImportJob
		var opts, detail string
		var created, updated dbTime
		if err := rows.Scan(&j.ID, &j.Workspace, &j.UserID, &j.Source, &j.State, &j.Runner, &j.Path, &opts, &detail, &created, &updated); err != nil {
			return nil, fmt.Errorf("import job: list: %w", err)
		}
		j.Options, j.Detail, j.CreatedAt, j.UpdatedAt = []byte(opts), []byte(detail), created.Time, updated.Time
		out = append(out, j)
	}
	return out, rows.Err()
}

// ImportJob returns one of a workspace's jobs, or ErrNotFound.
func (s *Store) ImportJob(ctx context.Context, workspace, id string) (ImportJob, error) {
	jobs, err := s.importJobs(ctx, `where "workspaceId" = ? and "id" = ?`, workspace, id)
	if err != nil {
		return ImportJob{}, err
	}
	if len(jobs) == 0 {
		return ImportJob{}, ErrNotFound
	}
	return jobs[0], nil
}

// DeleteImportJobs deletes a workspace's job records (the workspace is being deleted).
func (s *Store) DeleteImportJobs(ctx context.Context, workspace string) error {
	if _, err := s.exec(ctx, `delete from "importJob" where "workspaceId" = ?`, workspace); err != nil {
		return fmt.Errorf("import job: delete: %w", err)
	}
	return nil
}
