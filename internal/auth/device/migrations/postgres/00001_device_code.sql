-- +goose Up
-- Better Auth's device-authorization table, exactly as its PostgreSQL migration writes it, so a
-- database created by a Better Auth app is adopted as is.
create table if not exists "deviceCode" ("id" text not null primary key, "deviceCode" text not null, "userCode" text not null, "userId" text, "expiresAt" timestamptz not null, "status" text not null, "lastPolledAt" timestamptz, "pollingInterval" integer, "clientId" text, "scope" text);
create unique index if not exists "deviceCode_deviceCode_uidx" on "deviceCode" ("deviceCode");
create unique index if not exists "deviceCode_userCode_uidx" on "deviceCode" ("userCode");

-- +goose Down
drop table if exists "deviceCode";
