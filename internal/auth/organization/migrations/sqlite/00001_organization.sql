-- +goose Up
-- Better Auth's organization plugin schema (teams and dynamic access control on), as its SQLite
-- migration writes it, so a Better Auth database with these tables is adopted as is.
create table if not exists "organization" ("id" text not null primary key, "name" text not null, "slug" text not null unique, "logo" text, "createdAt" date not null, "metadata" text);
create table if not exists "team" ("id" text not null primary key, "name" text not null, "organizationId" text not null references "organization" ("id") on delete cascade, "createdAt" date not null, "updatedAt" date);
create table if not exists "teamMember" ("id" text not null primary key, "teamId" text not null references "team" ("id") on delete cascade, "userId" text not null references "user" ("id") on delete cascade, "createdAt" date);
create table if not exists "organizationRole" ("id" text not null primary key, "organizationId" text not null references "organization" ("id") on delete cascade, "role" text not null, "permission" text not null, "createdAt" date not null, "updatedAt" date);
create table if not exists "member" ("id" text not null primary key, "organizationId" text not null references "organization" ("id") on delete cascade, "userId" text not null references "user" ("id") on delete cascade, "role" text not null, "createdAt" date not null);
create table if not exists "invitation" ("id" text not null primary key, "organizationId" text not null references "organization" ("id") on delete cascade, "email" text not null, "role" text, "teamId" text, "status" text not null, "expiresAt" date not null, "createdAt" date not null, "inviterId" text not null references "user" ("id") on delete cascade);
create index if not exists "member_organizationId_idx" on "member" ("organizationId");
create index if not exists "member_userId_idx" on "member" ("userId");
create index if not exists "invitation_organizationId_idx" on "invitation" ("organizationId");
create index if not exists "invitation_email_idx" on "invitation" ("email");
create index if not exists "team_organizationId_idx" on "team" ("organizationId");
create index if not exists "teamMember_teamId_idx" on "teamMember" ("teamId");
create index if not exists "teamMember_userId_idx" on "teamMember" ("userId");
create index if not exists "organizationRole_organizationId_idx" on "organizationRole" ("organizationId");

-- +goose Down
drop table if exists "invitation";
drop table if exists "member";
drop table if exists "organizationRole";
drop table if exists "teamMember";
drop table if exists "team";
drop table if exists "organization";
