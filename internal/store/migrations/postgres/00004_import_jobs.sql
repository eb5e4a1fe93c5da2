-- +goose Up
-- Import jobs (issue 30 §2): every import, whichever door it came through, recorded when it is
-- queued, starts and ends, so it survives a restart and never vanishes from GET /imports.
-- "runner" is the host and DATA_DIR of the process that runs it (only that process resumes it);
-- "detail" is the job as the API shows it (JSON), "options" what the import was asked with.
create table if not exists "importJob" ("id" text not null primary key, "workspaceId" text not null, "userId" text not null, "source" text not null, "state" text not null, "runner" text not null, "path" text not null, "options" text not null, "detail" text not null, "createdAt" timestamptz not null, "updatedAt" timestamptz not null);
create index if not exists "importJob_workspace" on "importJob" ("workspaceId", "createdAt");
create index if not exists "importJob_unfinished" on "importJob" ("runner", "state");

-- +goose Down
drop table if exists "importJob";
