-- +goose Up
-- A workspace's plan comes from its newest active subscription. modifiedAt (Unix ms) is Polar's, so an
-- event older than the stored state never overwrites it.
create table if not exists "billingSubscription" ("id" text not null primary key, "workspaceId" text not null, "userId" text not null, "productId" text not null, "plan" text not null, "status" text not null, "cancelAtPeriodEnd" integer not null, "currentPeriodEnd" bigint, "modifiedAt" bigint not null, "updatedAt" date not null);
create index if not exists "billingSubscription_workspaceId_idx" on "billingSubscription" ("workspaceId");
-- Each webhook delivery (its webhook-id) is applied once.
create table if not exists "billingWebhook" ("id" text not null primary key, "type" text not null, "receivedAt" date not null);

-- +goose Down
drop table if exists "billingWebhook";
drop table if exists "billingSubscription";
