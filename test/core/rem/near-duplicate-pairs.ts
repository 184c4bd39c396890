/**
 * The dev set of the rejected-claim detector (src/core/rem/near-duplicate.ts, docs/governance.md, "Rejections that teach"): pairs of a claim a
 * reviewer rejected and a claim a model proposed later. `same: true` when the later claim says the same thing in
 * other words (it should be skipped); `same: false` when it is a genuinely different insight (it must be staged) —
 * a negation, a changed number, name, date or direction, or another point about the same topic. Written by hand for
 * this detector, in the style of distilled insights; the kinds are balanced so no one trick carries the score.
 */
export interface ClaimPair {
  rejected: string;
  claim: string;
  same: boolean;
  kind: 'paraphrase' | 'reordered' | 'negation' | 'number' | 'name' | 'date' | 'opposite' | 'frequency' | 'topic';
}

const paraphrase = (rejected: string, claim: string): ClaimPair => ({ rejected, claim, same: true, kind: 'paraphrase' });
const reordered = (rejected: string, claim: string): ClaimPair => ({ rejected, claim, same: true, kind: 'reordered' });
const different =
  (kind: Exclude<ClaimPair['kind'], 'paraphrase' | 'reordered'>) =>
  (rejected: string, claim: string): ClaimPair => ({
    rejected,
    claim,
    same: false,
    kind,
  });
const negation = different('negation');
const number = different('number');
const name = different('name');
const date = different('date');
const opposite = different('opposite');
const frequency = different('frequency');
const topic = different('topic');

export const CLAIM_PAIRS: readonly ClaimPair[] = [
  // ---- the same claim, reworded ---------------------------------------------------------------------------------
  paraphrase('Deploys on Friday afternoons often fail.', 'Friday afternoon deployments frequently fail.'),
  paraphrase(
    'The billing service times out when the Postgres connection pool is exhausted.',
    'When the Postgres connection pool is exhausted, the billing service times out.',
  ),
  paraphrase('Ana prefers short status updates in Slack over long emails.', 'Ana prefers short Slack status updates to long emails.'),
  paraphrase('Running the migrations before the deploy avoids schema drift errors.', 'Avoid schema drift errors by running the migrations before deploying.'),
  paraphrase('Flaky integration tests are usually caused by shared test databases.', 'Shared test databases usually cause the flaky integration tests.'),
  paraphrase(
    'The team decided to use Redis for session storage because it was already in the stack.',
    'Because Redis was already in the stack, the team decided to use it for session storage.',
  ),
  paraphrase('Retrying the upload 3 times fixes most transient S3 errors.', 'Most transient S3 errors are fixed by retrying the upload 3 times.'),
  paraphrase('Customer churn spikes after price changes are announced by email.', 'After price changes are announced by email, customer churn spikes.'),
  paraphrase('Code reviews go faster when pull requests stay under 400 lines.', 'Pull requests that stay under 400 lines get faster code reviews.'),
  paraphrase('The nightly backup job fails when the disk is more than 90% full.', 'When the disk is more than 90% full, the nightly backup job fails.'),
  paraphrase('Marco wants weekly reports sent on Monday mornings.', 'Marco wants the weekly reports sent on Monday mornings.'),
  paraphrase('Users abandon the signup form when it asks for a phone number.', 'The signup form is abandoned by users when it asks for a phone number.'),
  paraphrase('Memory leaks in the worker come from unclosed database cursors.', 'Unclosed database cursors cause the memory leaks in the worker.'),
  paraphrase('The API rate limit of 100 requests per minute is hit during batch imports.', 'Batch imports hit the API rate limit of 100 requests per minute.'),
  paraphrase('Pinning dependency versions prevents surprise build breakages.', 'Surprise build breakages are prevented by pinning dependency versions.'),
  paraphrase('The on-call engineer should be paged only for customer-facing outages.', 'Only customer-facing outages should page the on-call engineer.'),
  paraphrase('Caching the product catalogue cut page load time in half.', 'Page load time was cut in half by caching the product catalogue.'),
  paraphrase('Priya likes detailed design docs before any implementation starts.', 'Priya prefers detailed design docs before implementation starts.'),
  paraphrase('Invoices generated at month end often contain rounding errors.', 'Month end invoices often contain rounding errors.'),
  paraphrase('Switching the CI runners to larger machines halved the build time.', 'The build time was halved by switching the CI runners to larger machines.'),
  paraphrase(
    'Support tickets about login problems double after each mobile release.',
    'After each mobile release, support tickets about login problems double.',
  ),
  paraphrase('The search index must be rebuilt after changing the tokenizer.', 'After changing the tokenizer, the search index must be rebuilt.'),
  paraphrase('Kenji prefers to review code in the morning.', 'Kenji prefers reviewing code in the morning.'),
  paraphrase('Large CSV exports time out because they are generated synchronously.', 'Large CSV exports time out since they are generated synchronously.'),
  paraphrase('Alerts without a runbook link get ignored by the on-call team.', 'The on-call team ignores alerts without a runbook link.'),
  paraphrase(
    'The staging environment drifts from production when hotfixes skip it.',
    'When hotfixes skip staging, the staging environment drifts from production.',
  ),
  paraphrase(
    'Feature flags left on for months make the code hard to reason about.',
    'Feature flags left on for months make the code hard to reason about over time.',
  ),
  paraphrase('The checkout page breaks when the payment provider returns a 502.', 'When the payment provider returns a 502, the checkout page breaks.'),
  paraphrase('Lena asks for data to back every roadmap decision.', 'Lena asks for data backing every roadmap decision.'),
  paraphrase('Using UTC timestamps everywhere removed the daylight saving bugs.', 'The daylight saving bugs were removed by using UTC timestamps everywhere.'),
  paraphrase('Database migrations should always be reversible.', 'Database migrations should always be reversible ones.'),
  paraphrase('The mobile app crashes on startup when the cache file is corrupted.', 'A corrupted cache file crashes the mobile app on startup.'),
  paraphrase(
    'Small, frequent releases caused fewer incidents than big quarterly ones.',
    'Small frequent releases caused fewer incidents than the big quarterly ones.',
  ),
  paraphrase('The sales team needs the pipeline report by Thursday noon.', 'The sales team needs the pipeline report by Thursday at noon.'),
  paraphrase('Tests that depend on the wall clock are flaky around midnight.', 'Tests depending on the wall clock are flaky around midnight.'),
  paraphrase(
    'The recommendation model performs worse for users with fewer than 5 orders.',
    'For users with fewer than 5 orders, the recommendation model performs worse.',
  ),
  paraphrase(
    'Writing the postmortem within 48 hours keeps the details accurate.',
    'Keeping the details accurate means writing the postmortem within 48 hours.',
  ),
  paraphrase('Tomás prefers pairing sessions over asynchronous code review.', 'Tomás prefers pairing sessions to asynchronous code review.'),
  paraphrase('The queue backs up whenever the email provider throttles us.', 'Whenever the email provider throttles us, the queue backs up.'),
  paraphrase('Onboarding new engineers takes about 3 weeks with the current docs.', 'With the current docs, onboarding new engineers takes about three weeks.'),
  paraphrase('Gzip compression reduced the API response size by 70%.', 'The API response size was reduced by 70% with gzip compression.'),
  paraphrase('The data team wants schema changes announced a week ahead.', 'The data team wants schema changes announced one week ahead.'),
  paraphrase('Customers on the legacy plan cannot use single sign-on.', "Customers on the legacy plan can't use single sign-on."),
  paraphrase('Never run the cleanup script against production without a snapshot.', 'Do not run the cleanup script against production without a snapshot.'),
  paraphrase(
    'The dashboard is slow because it queries the primary database directly.',
    'Because it queries the primary database directly, the dashboard is slow.',
  ),
  paraphrase('Incidents are resolved faster when one person is named incident commander.', 'Naming one person incident commander resolves incidents faster.'),
  paraphrase('The cron job at 02:00 UTC collides with the backup window.', 'The 02:00 UTC cron job collides with the backup window.'),
  paraphrase('Sofia does not want meetings scheduled on Fridays.', "Sofia doesn't want meetings scheduled on Fridays."),
  paraphrase('Translation strings are often missing in the German release.', 'The German release often has missing translation strings.'),
  paraphrase('Vendor invoices over $10,000 need approval from finance.', 'Vendor invoices over $10000 need finance approval.'),
  reordered(
    'Retries with exponential backoff fixed the webhook delivery failures.',
    'The webhook delivery failures were fixed by retries with exponential backoff.',
  ),
  reordered('The login service leaks memory under heavy load.', 'Under heavy load, the login service leaks memory.'),
  reordered('Hotfixes deployed without review caused two outages in March.', 'Two outages in March were caused by hotfixes deployed without review.'),
  reordered('The image resizer is the slowest step of the upload pipeline.', 'The slowest step of the upload pipeline is the image resizer.'),
  reordered('Most support requests arrive between 9 and 11 in the morning.', 'Between 9 and 11 in the morning, most support requests arrive.'),
  reordered('Documentation written after launch is rarely read.', 'Documentation is rarely read when written after launch.'),
  reordered('Customers in Germany prefer invoices by post.', 'In Germany, customers prefer invoices by post.'),
  reordered('The team ships faster with trunk-based development.', 'With trunk-based development the team ships faster.'),
  reordered('Jenkins builds fail when the artifact cache is cold.', 'When the artifact cache is cold, Jenkins builds fail.'),
  reordered('Backups are only useful if restores are tested regularly.', 'Restores must be tested regularly for backups to be useful.'),
  paraphrase('Load tests should run against a copy of production data.', 'Load tests should be run against a copy of the production data.'),
  paraphrase('The analytics pipeline drops events when Kafka lag exceeds 1 hour.', 'When Kafka lag exceeds 1 hour, the analytics pipeline drops events.'),
  paraphrase('Raj prefers written proposals over live brainstorming.', 'Raj prefers written proposals to live brainstorming sessions.'),
  paraphrase('Timeouts in the mobile app are mostly caused by slow DNS resolution.', 'Slow DNS resolution causes most of the timeouts in the mobile app.'),
  paraphrase('Renaming columns in place broke the reporting queries.', 'The reporting queries broke after columns were renamed in place.'),
  paraphrase('The team agreed to freeze deploys during the holiday season.', 'During the holiday season, the team agreed to freeze deploys.'),
  paraphrase('Error budgets helped the team decide when to stop feature work.', 'The team used error budgets to decide when to stop feature work.'),
  paraphrase('Contract tests caught API breaking changes before release.', 'API breaking changes were caught by contract tests before release.'),
  paraphrase('Password reset emails land in spam for Outlook users.', 'For Outlook users, password reset emails land in spam.'),
  paraphrase('The warehouse robots stall when the Wi-Fi signal drops.', 'When the Wi-Fi signal drops, the warehouse robots stall.'),
  paraphrase('Quarterly planning takes two full days for the platform group.', 'Quarterly planning takes the platform group 2 full days.'),
  paraphrase('Dark mode was the most requested feature in the last survey.', 'In the last survey, dark mode was the most requested feature.'),
  paraphrase(
    'Slow queries on the orders table come from a missing index on customer_id.',
    'A missing index on customer_id causes the slow queries on the orders table.',
  ),
  paraphrase('Cutting the standup to 10 minutes improved attendance.', 'Attendance improved after the standup was cut to 10 minutes.'),
  paraphrase('The agent should confirm before deleting any files.', 'Before deleting any files, the agent should confirm.'),
  paraphrase('Emma wants all invoices reviewed twice before they are sent.', 'Emma wants every invoice reviewed twice before sending.'),
  paraphrase(
    'TLS certificate renewals fail silently when the DNS challenge times out.',
    'When the DNS challenge times out, TLS certificate renewals fail silently.',
  ),
  paraphrase('The assistant should answer in English unless asked otherwise.', 'Unless asked otherwise, the assistant should answer in English.'),
  paraphrase('Batching writes into one transaction made the import 5x faster.', 'The import became 5x faster by batching writes into one transaction.'),
  paraphrase(
    'Merge conflicts pile up when feature branches live longer than a week.',
    'Feature branches that live longer than a week pile up merge conflicts.',
  ),
  paraphrase('Customers churn less when onboarding includes a live demo.', 'Onboarding that includes a live demo leads to less customer churn.'),
  paraphrase('The GPU nodes sit idle most nights.', 'Most nights the GPU nodes sit idle.'),
  paraphrase('Hard-coded secrets were found in 4 repositories during the audit.', 'The audit found hard-coded secrets in four repositories.'),
  paraphrase('The legal team must approve any change to the privacy policy.', 'Any change to the privacy policy must be approved by the legal team.'),

  // The same claim, reworded, keeping how often or how many (review of issue 29: a frequency or quantity word kept in
  // other words is still the same claim).
  paraphrase('Deploys on Friday afternoons rarely fail.', 'Friday afternoon deployments seldom fail.'),
  paraphrase('Most users enable dark mode in the dashboard.', 'In the dashboard, the majority of users enable dark mode.'),
  paraphrase('All customers ask for invoices in PDF format.', 'Every customer asks for PDF invoices.'),
  paraphrase('Only admins can rotate the API keys.', 'API keys can be rotated only by admins.'),
  paraphrase('The mobile app occasionally crashes on older Android phones.', 'On older Android phones the mobile app sometimes crashes.'),
  paraphrase('A few customers churn after the first price increase.', 'Some customers churn after the first price increase.'),
  paraphrase('Few customers read the release notes.', 'Hardly any customers read the release notes.'),
  paraphrase('The CI pipeline always runs the integration tests.', 'Integration tests are run by the CI pipeline every time.'),
  paraphrase('Many incidents start with an expired certificate.', 'Many incidents begin with an expired certificate.'),
  reordered('Ana seldom reviews pull requests on weekends.', 'On weekends Ana rarely reviews pull requests.'),
  paraphrase('Load spikes usually happen during the monthly payroll run.', 'Load spikes typically occur during the monthly payroll run.'),
  reordered('Everyone on the team uses the shared VPN profile.', 'The shared VPN profile is used by everybody on the team.'),
  paraphrase('Some schema changes need a search index rebuild.', 'Several schema changes require rebuilding the search index.'),

  // ---- genuinely different claims -------------------------------------------------------------------------------
  negation('Deploys on Friday afternoons often fail.', 'Deploys on Friday afternoons do not often fail.'),
  negation(
    'The billing service times out when the Postgres connection pool is exhausted.',
    'The billing service does not time out when the Postgres connection pool is exhausted.',
  ),
  negation('Running the migrations before the deploy avoids schema drift errors.', 'Running the migrations before the deploy causes schema drift errors.'),
  negation('Ana prefers short status updates in Slack over long emails.', 'Ana does not prefer short status updates in Slack over long emails.'),
  negation('Caching the product catalogue cut page load time in half.', 'Caching the product catalogue did not cut page load time in half.'),
  negation('The search index must be rebuilt after changing the tokenizer.', 'The search index need not be rebuilt after changing the tokenizer.'),
  negation('Customers on the legacy plan can use single sign-on.', 'Customers on the legacy plan cannot use single sign-on.'),
  negation('Database migrations should always be reversible.', 'Database migrations should never be reversible.'),
  negation('The agent should confirm before deleting any files.', 'The agent should not confirm before deleting files.'),
  negation('Sofia wants meetings scheduled on Fridays.', 'Sofia does not want meetings scheduled on Fridays.'),
  negation('Contract tests caught API breaking changes before release.', 'Contract tests never caught API breaking changes before release.'),
  negation('The legal team must approve any change to the privacy policy.', 'No approval from the legal team is needed for changes to the privacy policy.'),
  negation('Pinning dependency versions prevents surprise build breakages.', 'Pinning dependency versions does not prevent surprise build breakages.'),
  negation(
    'The dashboard is slow because it queries the primary database directly.',
    'The dashboard is not slow although it queries the primary database directly.',
  ),
  number('Retrying the upload 3 times fixes most transient S3 errors.', 'Retrying the upload 5 times fixes most transient S3 errors.'),
  number('Code reviews go faster when pull requests stay under 400 lines.', 'Code reviews go faster when pull requests stay under 200 lines.'),
  number('The nightly backup job fails when the disk is more than 90% full.', 'The nightly backup job fails when the disk is more than 80% full.'),
  number(
    'The API rate limit of 100 requests per minute is hit during batch imports.',
    'The API rate limit of 1000 requests per minute is hit during batch imports.',
  ),
  number('Onboarding new engineers takes about 3 weeks with the current docs.', 'Onboarding new engineers takes about 6 weeks with the current docs.'),
  number('Gzip compression reduced the API response size by 70%.', 'Gzip compression reduced the API response size by 30%.'),
  number('Writing the postmortem within 48 hours keeps the details accurate.', 'Writing the postmortem within 24 hours keeps the details accurate.'),
  number(
    'The recommendation model performs worse for users with fewer than 5 orders.',
    'The recommendation model performs worse for users with fewer than 2 orders.',
  ),
  number('Vendor invoices over $10,000 need approval from finance.', 'Vendor invoices over $5,000 need approval from finance.'),
  number('Cutting the standup to 10 minutes improved attendance.', 'Cutting the standup to 15 minutes improved attendance.'),
  number('Emma wants all invoices reviewed twice before they are sent.', 'Emma wants all invoices reviewed three times before they are sent.'),
  number('Batching writes into one transaction made the import 5x faster.', 'Batching writes into one transaction made the import 2x faster.'),
  number('Hard-coded secrets were found in 4 repositories during the audit.', 'Hard-coded secrets were found in 14 repositories during the audit.'),
  number('The analytics pipeline drops events when Kafka lag exceeds 1 hour.', 'The analytics pipeline drops events when Kafka lag exceeds 10 minutes.'),
  number('Support tickets about login problems double after each mobile release.', 'Support tickets about login problems triple after each mobile release.'),
  number('Upgrading to Node 18 broke the image pipeline.', 'Upgrading to Node 20 broke the image pipeline.'),
  name('Ana prefers short status updates in Slack over long emails.', 'Bruno prefers short status updates in Slack over long emails.'),
  name('Marco wants weekly reports sent on Monday mornings.', 'Giulia wants weekly reports sent on Monday mornings.'),
  name('Priya likes detailed design docs before any implementation starts.', 'Priya likes detailed design docs before any implementation starts, says Omar.'),
  name(
    'The billing service times out when the Postgres connection pool is exhausted.',
    'The billing service times out when the MySQL connection pool is exhausted.',
  ),
  name('Kenji prefers to review code in the morning.', 'Hana prefers to review code in the morning.'),
  name('Password reset emails land in spam for Outlook users.', 'Password reset emails land in spam for Gmail users.'),
  name('Jenkins builds fail when the artifact cache is cold.', 'GitLab builds fail when the artifact cache is cold.'),
  name('The analytics pipeline drops events when Kafka lag exceeds 1 hour.', 'The analytics pipeline drops events when RabbitMQ lag exceeds 1 hour.'),
  name('Customers in Germany prefer invoices by post.', 'Customers in France prefer invoices by post.'),
  name(
    'Slow queries on the orders table come from a missing index on customer_id.',
    'Slow queries on the orders table come from a missing index on order_date.',
  ),
  name('Tomás prefers pairing sessions over asynchronous code review.', 'Lucía prefers pairing sessions over asynchronous code review.'),
  name('Translation strings are often missing in the German release.', 'Translation strings are often missing in the Japanese release.'),
  name(
    'The team decided to use Redis for session storage because it was already in the stack.',
    'The team decided to use Memcached for session storage because it was already in the stack.',
  ),
  name('Lena asks for data to back every roadmap decision.', 'Lena asks Victor for data to back every roadmap decision.'),
  date('Hotfixes deployed without review caused two outages in March.', 'Hotfixes deployed without review caused two outages in April.'),
  date('The sales team needs the pipeline report by Thursday noon.', 'The sales team needs the pipeline report by Tuesday noon.'),
  date('The cron job at 02:00 UTC collides with the backup window.', 'The cron job at 03:00 UTC collides with the backup window.'),
  date('Marco wants weekly reports sent on Monday mornings.', 'Marco wants weekly reports sent on Friday mornings.'),
  date('The team agreed to freeze deploys from 2024-12-20 to 2025-01-03.', 'The team agreed to freeze deploys from 2024-12-15 to 2025-01-06.'),
  date('Sofia does not want meetings scheduled on Fridays.', 'Sofia does not want meetings scheduled on Mondays.'),
  date('The Q3 launch slipped because of the security review.', 'The Q4 launch slipped because of the security review.'),
  date('Invoices generated at month end often contain rounding errors.', 'Invoices generated on 15 March often contain rounding errors.'),
  date('The data migration is planned for 12 June.', 'The data migration is planned for 21 June.'),
  date('Support volume peaks every year in late November.', 'Support volume peaks every year in late January.'),
  opposite('Deploys on Friday afternoons often fail.', 'Deploys on Friday mornings often fail.'),
  opposite('Caching the product catalogue cut page load time in half.', 'Caching the product catalogue increased page load time.'),
  opposite(
    'Small, frequent releases caused fewer incidents than big quarterly ones.',
    'Small, frequent releases caused more incidents than big quarterly ones.',
  ),
  opposite('The staging environment drifts from production when hotfixes skip it.', 'The production environment drifts from staging when hotfixes skip it.'),
  opposite('Running the migrations before the deploy avoids schema drift errors.', 'Running the migrations after the deploy avoids schema drift errors.'),
  opposite('Load tests should run against a copy of production data.', 'Load tests should run against a copy of staging data.'),
  opposite('Raj prefers written proposals over live brainstorming.', 'Raj prefers verbal proposals over live brainstorming.'),
  opposite('Large CSV exports time out because they are generated synchronously.', 'Large CSV exports time out because they are generated asynchronously.'),
  opposite(
    'The dashboard is slow because it queries the primary database directly.',
    'The dashboard is slow because it queries the replica database directly.',
  ),
  opposite('Timeouts in the mobile app are mostly caused by slow DNS resolution.', 'Timeouts in the mobile app are rarely caused by slow DNS resolution.'),
  opposite('Switching the CI runners to larger machines halved the build time.', 'Switching the CI runners to smaller machines halved the build time.'),
  opposite('Documentation written after launch is rarely read.', 'Documentation written before launch is rarely read.'),
  opposite(
    'The recommendation model performs worse for users with fewer than 5 orders.',
    'The recommendation model performs better for users with fewer than 5 orders.',
  ),
  opposite('Merge conflicts pile up when feature branches live longer than a week.', 'Merge conflicts pile up when feature branches live shorter than a week.'),
  opposite('The assistant should reply in a formal tone to customers.', 'The assistant should reply in a casual tone to customers.'),
  topic('Deploys on Friday afternoons often fail.', 'Deploys on Friday afternoons take longer to roll back.'),
  topic(
    'The billing service times out when the Postgres connection pool is exhausted.',
    'The billing service retries failed charges when the Postgres connection pool is exhausted.',
  ),
  topic(
    'Flaky integration tests are usually caused by shared test databases.',
    'Flaky integration tests are usually caused by network calls to third-party sandboxes.',
  ),
  topic('Users abandon the signup form when it asks for a phone number.', 'Users abandon the signup form when it asks for a company size.'),
  topic('Memory leaks in the worker come from unclosed database cursors.', 'Memory leaks in the worker come from an unbounded in-process cache.'),
  topic('Alerts without a runbook link get ignored by the on-call team.', 'Alerts without an owner get ignored by the on-call team.'),
  topic('The mobile app crashes on startup when the cache file is corrupted.', 'The mobile app crashes on startup when the device is low on storage.'),
  topic('The queue backs up whenever the email provider throttles us.', 'The queue backs up whenever a worker deploy restarts all consumers.'),
  topic('Incidents are resolved faster when one person is named incident commander.', 'Incidents are resolved faster when the status page is updated early.'),
  topic('Feature flags left on for months make the code hard to reason about.', 'Feature flags should be owned by the team that created them.'),
  topic('The GPU nodes sit idle most nights.', 'The GPU nodes are the largest item on the cloud bill.'),
  topic('Customers churn less when onboarding includes a live demo.', 'Customers churn less when they connect an integration in the first week.'),
  topic('The warehouse robots stall when the Wi-Fi signal drops.', 'The warehouse robots stall when a shelf label is unreadable.'),
  topic('Error budgets helped the team decide when to stop feature work.', 'Error budgets were ignored once the launch date was fixed.'),
  topic(
    'TLS certificate renewals fail silently when the DNS challenge times out.',
    'TLS certificate renewals should page the on-call engineer when they fail.',
  ),
  topic('Renaming columns in place broke the reporting queries.', 'Renaming columns in place requires a two-step migration.'),
  topic('Dark mode was the most requested feature in the last survey.', 'Dark mode was the least used feature after launch.'),
  topic('The image resizer is the slowest step of the upload pipeline.', 'The image resizer should run in a separate worker pool.'),
  // How often or how many changed, added or dropped (review of issue 29: "rarely" against no frequency word was read
  // as a rewording).
  frequency('Deploys on Friday afternoons fail.', 'Deploys on Friday afternoons rarely fail.'),
  frequency('The nightly backup job fails.', 'The nightly backup job sometimes fails.'),
  frequency('Customers ask for invoices in PDF format.', 'Few customers ask for invoices in PDF format.'),
  frequency('All customers ask for invoices in PDF format.', 'Some customers ask for invoices in PDF format.'),
  frequency('Most users enable dark mode in the dashboard.', 'Few users enable dark mode in the dashboard.'),
  frequency('The CI pipeline always runs the integration tests.', 'The CI pipeline occasionally runs the integration tests.'),
  frequency('Admins can rotate the API keys.', 'Only admins can rotate the API keys.'),
  frequency('Ana reviews pull requests on weekends.', 'Ana seldom reviews pull requests on weekends.'),
  frequency('The search index is rebuilt after every schema change.', 'The search index is rebuilt after some schema changes.'),
  frequency('Many customers churn after the first price increase.', 'A few customers churn after the first price increase.'),
  frequency('The mobile app crashes on older Android phones.', 'The mobile app rarely crashes on older Android phones.'),
  frequency('Reviewers read the changelog before approving dependency bumps.', 'Reviewers occasionally read the changelog before approving dependency bumps.'),
  frequency('Everyone on the team uses the shared VPN profile.', 'Several people on the team use the shared VPN profile.'),
  frequency('Load spikes happen during the monthly payroll run.', 'Load spikes seldom happen during the monthly payroll run.'),
  frequency('Most incidents start with an expired certificate.', 'Some incidents start with an expired certificate.'),
  frequency('The data team uses the staging replica for reports.', 'Only the data team uses the staging replica for reports.'),
];
