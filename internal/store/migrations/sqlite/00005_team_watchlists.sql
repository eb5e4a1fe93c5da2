-- +goose Up
-- A team of an organization can keep its own watchlist: a workspace row of kind 'team' (id
-- "team-<team id>") whose parentId is the organization's workspace, whose datasets its numbers
-- and digests come from. Deleting the organization's workspace deletes its teams' lists.
alter table "workspace" add column "parentId" text references "workspace" ("id") on delete cascade;
create index if not exists "workspace_parentId_idx" on "workspace" ("parentId");

-- +goose Down
drop index if exists "workspace_parentId_idx";
alter table "workspace" drop column "parentId";
