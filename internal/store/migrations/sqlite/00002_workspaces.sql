-- +goose Up
-- Workspaces own trends datasets (in DuckDB) and watchlists. One personal workspace per user for
-- now; organizations later add more members.
create table if not exists "workspace" ("id" text not null primary key, "name" text not null, "kind" text not null, "createdAt" date not null);
create table if not exists "workspaceMember" ("workspaceId" text not null references "workspace" ("id") on delete cascade, "userId" text not null references "user" ("id") on delete cascade, "role" text not null, "createdAt" date not null, primary key ("workspaceId", "userId"));
create index if not exists "workspaceMember_userId_idx" on "workspaceMember" ("userId");
create table if not exists "watchlistItem" ("id" text not null primary key, "workspaceId" text not null references "workspace" ("id") on delete cascade, "kind" text not null, "value" text not null, "createdAt" date not null, unique ("workspaceId", "kind", "value"));

-- +goose Down
drop table if exists "watchlistItem";
drop table if exists "workspaceMember";
drop table if exists "workspace";
