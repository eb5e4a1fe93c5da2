-- +goose Up
-- Alert digests (issue 28 §4). alertPreference: a user's choice (after each import, weekly or
-- off) and the rank-move threshold in percent; a user without a row gets the defaults.
-- alertDigest: one row per digest a user was sent (or is being sent), keyed by the import's
-- dataset and period or by the week, so no digest goes out twice.
create table if not exists "alertPreference" ("userId" text not null primary key references "user" ("id") on delete cascade, "frequency" text not null, "threshold" integer not null, "updatedAt" timestamptz not null);
create table if not exists "alertDigest" ("userId" text not null references "user" ("id") on delete cascade, "digestKey" text not null, "sentAt" timestamptz not null, primary key ("userId", "digestKey"));

-- +goose Down
drop table if exists "alertDigest";
drop table if exists "alertPreference";
