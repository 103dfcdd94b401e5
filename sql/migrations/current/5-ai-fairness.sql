-- AI fairness: the service's AI tokens of a UTC day, every account together, kept apart from
-- the per-account rows (app_private.ai_tokens) so that deleting an account gives nothing back.
create table if not exists app_private.ai_tokens_total (
  day date primary key,
  tokens bigint not null default 0 check (tokens >= 0)
);
-- today's use so far counts from the start
insert into app_private.ai_tokens_total (day, tokens)
select day, sum(tokens) from app_private.ai_tokens group by day
on conflict (day) do nothing;

-- begin_ai_call takes the service's cap too; ai_budget_spent became spent_ai_budget (which budget)
drop function if exists app_public.begin_ai_call(bigint, integer, bigint);
drop function if exists app_public.ai_budget_spent(bigint, bigint);
