-- The drafts list says what holds each draft (a series' occurrence, a content-plan slot) and
-- which free draft a series takes next: project_drafts answers more columns.
drop function if exists app_public.project_drafts(bigint, bigint);
