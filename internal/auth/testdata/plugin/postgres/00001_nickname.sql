-- +goose Up
alter table "user" add column "nickname" text;

-- +goose Down
alter table "user" drop column "nickname";
