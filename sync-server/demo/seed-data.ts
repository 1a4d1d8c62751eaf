import type { ApplicationStatus, Location, Seniority, TopicStatus } from '../../shared/constants.ts'

/**
 * The demo data an empty database gets on `npm start` (see seed.ts): a
 * mid-sized software company's mentorship programme a few months in. Times
 * are days before the moment of seeding, so the lists always look recent.
 */

export type SeedUser = {
  username: string
  fullName: string
  seniority: Seniority | null
  bio: string
  interests: string[]
  isAdmin?: boolean
  /** Said in their profile that they are looking for a mentor (matching, issue 17). */
  lookingForMentor?: boolean
  /** How they would like to meet; left out: no preference. */
  preferredLocation?: Location | null
  /** Days ago the account was created. */
  joined: number
  /** Days ago the user last opened the notifications bell: older notifications are read. */
  bellOpened: number
}

export type SeedTopic = {
  /** A handle for the other tables of this file; not stored. */
  key: string
  subject: string
  mentor: string
  status: TopicStatus
  maxMentees: 1 | 2
  seniorityRequired: Seniority[]
  location: Location
  interests: string[]
  description: string
  rejectionReason?: string
  mentorFeedback?: string
  /** Days ago of each step the topic went through. */
  proposed: number
  reviewed?: number
  started?: number
  concluded?: number
}

export type SeedApplication = {
  topic: string
  mentee: string
  status: ApplicationStatus
  rejectionReason?: string
  applied: number
  /** Days ago the mentor accepted or rejected it (or the topic started). */
  decided?: number
}

/** A mentor's invitation to apply (issue 17); `declined` days ago when the person declined it. */
export type SeedInvitation = {
  topic: string
  mentee: string
  invited: number
  declined?: number
}

/** A "Not interested" mark on a recommended topic. */
export type SeedDismissal = { topic: string; username: string; at: number }

export type SeedFeedback = {
  topic: string
  username: string
  rating: 1 | 2 | 3 | 4 | 5
  feedback: string
  given: number
}

export type SeedPreferences = {
  newApplications: boolean
  topicStatusUpdates: boolean
  applicationStatusUpdates: boolean
  newTopicsForReview: boolean
}

/** Writes a link as the editor does: it always opens in a new tab. */
function link(href: string, text: string): string {
  return `<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${text}</a>`
}

/** A list as the editor writes it: each item holds a paragraph. */
function list(tag: 'ul' | 'ol', items: string[]): string {
  return `<${tag}>${items.map((item) => `<li><p>${item}</p></li>`).join('')}</${tag}>`
}

const html = (...blocks: string[]): string => blocks.join('')

export const INTERESTS: string[] = [
  'TypeScript',
  'React',
  'Rust',
  'Go',
  'Python',
  'System Design',
  'Distributed Systems',
  'Kubernetes',
  'Cloud Architecture',
  'Observability',
  'Machine Learning',
  'Data Engineering',
  'SQL',
  'Security',
  'Testing',
  'Accessibility',
  'UX Research',
  'Design Systems',
  'Product Management',
  'Public Speaking',
  'Technical Writing',
  'Career Growth',
  'Leadership',
  'Engineering Management',
  'Open Source',
  'Mobile Development',
]

const ADMIN_USERNAME = 'admin'

export const USERS: SeedUser[] = [
  {
    username: ADMIN_USERNAME,
    fullName: 'Alex Morgan',
    seniority: 'senior',
    isAdmin: true,
    bio: 'Engineering manager for the Developer Experience group and coordinator of the Pairwise programme. I review new topics and am happy to help match mentors and mentees.',
    interests: ['Leadership', 'Engineering Management', 'Career Growth'],
    joined: 120,
    bellOpened: 4,
  },
  // Mentors
  {
    username: 'priya.sharma',
    fullName: 'Priya Sharma',
    seniority: 'senior',
    preferredLocation: 'in-person',
    bio: 'Staff engineer on the Platform team. I have spent the last eight years building and operating the services behind our checkout and billing flows.',
    interests: ['System Design', 'Distributed Systems', 'Kubernetes', 'Go', 'Observability'],
    joined: 118,
    bellOpened: 2,
  },
  {
    username: 'marcus.oyelaran',
    fullName: 'Marcus Oyelaran',
    seniority: 'senior',
    preferredLocation: 'both',
    bio: 'Engineering manager for the Payments squads. I moved from backend engineering into management four years ago and still remember how confusing the first months were.',
    interests: ['Leadership', 'Engineering Management', 'Public Speaking', 'Career Growth'],
    joined: 115,
    bellOpened: 1,
  },
  {
    username: 'elena.rossi',
    fullName: 'Elena Rossi',
    seniority: 'senior',
    preferredLocation: 'online',
    bio: 'Principal product designer. I run our research guild and look after the design system, with a soft spot for accessible forms.',
    interests: ['UX Research', 'Accessibility', 'Design Systems', 'Product Management'],
    joined: 112,
    bellOpened: 6,
  },
  {
    username: 'daniel.kim',
    fullName: 'Daniel Kim',
    seniority: 'senior',
    bio: 'Application security lead. Before security I was a backend developer, so I try to make secure coding practical rather than scary.',
    interests: ['Security', 'Rust', 'Go', 'Distributed Systems'],
    joined: 110,
    bellOpened: 3,
  },
  {
    username: 'sofia.lindqvist',
    fullName: 'Sofia Lindqvist',
    seniority: 'senior',
    preferredLocation: 'in-person',
    bio: 'Senior data engineer on the Analytics Platform team. I build the pipelines that feed our reporting and recommendation models.',
    interests: ['Data Engineering', 'Python', 'SQL', 'Machine Learning'],
    joined: 105,
    bellOpened: 2,
  },
  {
    username: 'tom.becker',
    fullName: 'Tom Becker',
    seniority: 'mid',
    lookingForMentor: true,
    preferredLocation: 'both',
    bio: 'Frontend engineer on the web app team, mostly TypeScript and React. I maintain our shared component library and its test setup.',
    interests: ['TypeScript', 'React', 'Testing', 'Accessibility', 'Leadership'],
    joined: 100,
    bellOpened: 5,
  },
  // Mentees
  {
    username: 'aisha.khan',
    fullName: 'Aisha Khan',
    seniority: 'junior',
    lookingForMentor: true,
    preferredLocation: 'online',
    bio: 'Frontend developer who joined from the graduate programme last spring. I want to get better at designing types and writing tests I trust.',
    interests: ['TypeScript', 'React', 'Testing', 'Public Speaking'],
    joined: 98,
    bellOpened: 2,
  },
  {
    username: 'liam.oconnor',
    fullName: "Liam O'Connor",
    seniority: 'junior',
    lookingForMentor: true,
    preferredLocation: 'in-person',
    bio: 'Backend developer on the Orders team, working mostly in Go. Curious about how our services behave under load.',
    interests: ['Go', 'Kubernetes', 'System Design', 'Security'],
    joined: 97,
    bellOpened: 9,
  },
  {
    username: 'mei.chen',
    fullName: 'Mei Chen',
    seniority: 'mid',
    lookingForMentor: true,
    preferredLocation: 'both',
    bio: 'Data analyst moving towards data engineering. I know SQL well and want to learn how to build and run pipelines properly.',
    interests: ['Data Engineering', 'SQL', 'Python', 'Machine Learning'],
    joined: 95,
    bellOpened: 1,
  },
  {
    username: 'jonas.weber',
    fullName: 'Jonas Weber',
    seniority: 'mid',
    preferredLocation: 'online',
    bio: 'Backend engineer in the Identity team. Interested in Rust, security reviews and the design of systems that fail gracefully.',
    interests: ['Rust', 'Security', 'Distributed Systems', 'System Design'],
    joined: 94,
    bellOpened: 3,
  },
  {
    username: 'fatima.haddad',
    fullName: 'Fatima Haddad',
    seniority: 'junior',
    preferredLocation: 'both',
    bio: 'QA engineer who loves finding the edge cases nobody thought of. Lately I have been learning how assistive technology uses our product.',
    interests: ['Testing', 'Accessibility', 'Public Speaking', 'Career Growth'],
    joined: 92,
    bellOpened: 5,
  },
  {
    username: 'noah.williams',
    fullName: 'Noah Williams',
    seniority: null,
    lookingForMentor: true,
    bio: 'Product analyst who joined the Growth team two months ago. Keen to learn how to talk to customers and turn what they say into product decisions.',
    interests: ['Product Management', 'UX Research', 'SQL'],
    joined: 60,
    bellOpened: 3,
  },
  {
    username: 'grace.adeyemi',
    fullName: 'Grace Adeyemi',
    seniority: 'mid',
    bio: 'Mobile developer and informal lead of our Android chapter. Thinking about whether engineering management is the right next step for me.',
    interests: ['Mobile Development', 'Leadership', 'Career Growth', 'Public Speaking'],
    joined: 90,
    bellOpened: 2,
  },
  {
    username: 'lucas.martin',
    fullName: 'Lucas Martin',
    seniority: null,
    lookingForMentor: true,
    preferredLocation: 'online',
    bio: 'Software engineering intern for the summer, studying computer science. Eager to see how real product teams work.',
    interests: ['TypeScript', 'Career Growth', 'Open Source'],
    joined: 45,
    bellOpened: 30,
  },
]

/** Users whose notification settings differ from the defaults (every switch on). */
export const PREFERENCE_CHANGES: Record<string, Partial<SeedPreferences>> = {
  'priya.sharma': { newApplications: false },
  'liam.oconnor': { topicStatusUpdates: false, newTopicsForReview: false },
  'marcus.oyelaran': { newTopicsForReview: false },
}

export const TOPICS: SeedTopic[] = [
  {
    key: 'secure-review',
    subject: 'Secure code review in practice',
    mentor: 'daniel.kim',
    status: 'concluded',
    maxMentees: 1,
    seniorityRequired: ['mid', 'senior'],
    location: 'online',
    interests: ['Security', 'Go', 'Rust'],
    description: html(
      '<p>Most security bugs are found (or missed) in code review. Over three months we will review real pull requests together and build a habit of spotting the risky parts quickly.</p>',
      '<h3>What we will cover</h3>',
      list('ul', [
        'Reading a diff for trust boundaries: where does <em>untrusted</em> input enter?',
        'Injection, broken access control and unsafe deserialisation in our own stack',
        'Secrets, logging and what must never end up in <code>console.log</code>',
      ]),
      `<p>Background reading: the ${link('https://owasp.org/www-project-top-ten/', 'OWASP Top Ten')} and the ${link('https://cheatsheetseries.owasp.org/', 'OWASP Cheat Sheet Series')}.</p>`,
    ),
    mentorFeedback:
      'Jonas made great progress. By the end he was leading reviews for the Identity team on his own and found two real authorisation bugs before release.',
    proposed: 110,
    reviewed: 108,
    started: 95,
    concluded: 12,
  },
  {
    key: 'conference-talk',
    subject: 'Preparing your first conference talk',
    mentor: 'marcus.oyelaran',
    status: 'concluded',
    maxMentees: 2,
    seniorityRequired: ['junior', 'mid'],
    location: 'in-person',
    interests: ['Public Speaking', 'Career Growth', 'Technical Writing'],
    description: html(
      '<p>From a rough idea to a talk you are proud of. We will pick a topic from your daily work, write an abstract, shape the story and rehearse until it feels natural.</p>',
      '<h3>Plan</h3>',
      list('ol', [
        'Find the story: what did you learn that others would want to know?',
        'Write and submit a call-for-papers abstract',
        'Build the slides, then cut them in half',
        'Three dry runs: with me, with your team, and at the engineering all-hands',
      ]),
      '<blockquote><p>Nobody remembers your slides. They remember one idea and how you made them feel about it.</p></blockquote>',
      '<p>We meet <strong>in person</strong> every other Thursday in the London office.</p>',
    ),
    mentorFeedback:
      'Both mentees gave their talks at the engineering all-hands, and Fatima has had her abstract accepted at a regional testing conference. Very rewarding round.',
    proposed: 100,
    reviewed: 99,
    started: 90,
    concluded: 6,
  },
  {
    key: 'user-research',
    subject: 'Running your first user research study',
    mentor: 'elena.rossi',
    status: 'started',
    maxMentees: 2,
    seniorityRequired: ['junior', 'mid'],
    location: 'both',
    interests: ['UX Research', 'Product Management'],
    description: html(
      '<p>Learn to plan, run and analyse a small qualitative study end to end, using a real question from your own team.</p>',
      '<h3>You will</h3>',
      list('ul', [
        'Turn a vague question into research goals',
        'Write an interview guide that avoids leading questions',
        'Recruit five participants and run the interviews',
        'Synthesise the findings and present them to your team',
      ]),
      `<p>A good primer before we start: ${link('https://www.nngroup.com/articles/user-interviews/', 'User Interviews 101')} from Nielsen Norman Group.</p>`,
    ),
    proposed: 40,
    reviewed: 38,
    started: 28,
  },
  {
    key: 'data-pipelines',
    subject: 'Building reliable data pipelines with dbt and Airflow',
    mentor: 'sofia.lindqvist',
    status: 'started',
    maxMentees: 1,
    seniorityRequired: ['mid'],
    location: 'online',
    interests: ['Data Engineering', 'SQL', 'Python'],
    description: html(
      '<p>For analysts and engineers who want to move from ad-hoc queries to pipelines that run every night without anyone worrying about them.</p>',
      '<h3>Topics</h3>',
      list('ul', [
        'Modelling with <strong>dbt</strong>: sources, staging and marts',
        'Tests and documentation that live next to the models',
        'Scheduling, retries and backfills in <strong>Airflow</strong>',
        'Data quality alerts that people actually read',
      ]),
      `<p>Docs we will use a lot: ${link('https://docs.getdbt.com/docs/introduction', 'dbt')} and ${link('https://airflow.apache.org/docs/', 'Apache Airflow')}.</p>`,
    ),
    proposed: 35,
    reviewed: 34,
    started: 21,
  },
  {
    key: 'eng-manager',
    subject: 'From senior engineer to engineering manager',
    mentor: 'marcus.oyelaran',
    status: 'approved',
    maxMentees: 1,
    seniorityRequired: ['mid', 'senior'],
    location: 'both',
    interests: ['Leadership', 'Engineering Management', 'Career Growth'],
    description: html(
      '<p>Thinking about moving into management? This mentorship helps you find out whether it suits you <em>before</em> you make the jump.</p>',
      list('ul', [
        'What the job really is, week by week',
        'Running your first one-to-ones and giving honest feedback',
        'Delegation without losing touch with the code',
        'How to talk to your manager about the change',
      ]),
      '<p>Expect a monthly reading and plenty of role play.</p>',
    ),
    proposed: 25,
    reviewed: 23,
  },
  {
    key: 'typescript-types',
    subject: 'Writing TypeScript that scales: types as design',
    mentor: 'tom.becker',
    status: 'approved',
    maxMentees: 2,
    seniorityRequired: ['junior', 'mid'],
    location: 'online',
    interests: ['TypeScript', 'React', 'Testing'],
    description: html(
      '<p>Use the type system to make wrong states impossible instead of checking for them at runtime.</p>',
      '<h3>Sessions</h3>',
      list('ol', [
        'Discriminated unions and exhaustive <code>switch</code> statements',
        'Narrowing, type guards and <code>satisfies</code>',
        'Validating data at the edges with zod',
        'Typing React components without <code>any</code>',
      ]),
      `<p>Reference: the ${link('https://www.typescriptlang.org/docs/handbook/2/narrowing.html', 'TypeScript handbook on narrowing')}.</p>`,
    ),
    proposed: 18,
    reviewed: 16,
  },
  {
    key: 'distributed-systems',
    subject: 'Designing resilient distributed systems',
    mentor: 'priya.sharma',
    status: 'approved',
    maxMentees: 2,
    seniorityRequired: ['mid', 'senior'],
    location: 'online',
    interests: ['System Design', 'Distributed Systems', 'Observability'],
    description: html(
      '<p>We will take one of our own services, find its failure modes and redesign the weak spots together.</p>',
      '<h3>Along the way</h3>',
      list('ul', [
        'Timeouts, retries with jitter, and idempotency keys',
        'Queues, back-pressure and what happens when a consumer falls behind',
        'Consistency trade-offs you can explain to a product manager',
        'Dashboards and alerts that tell you <em>why</em>, not just <em>that</em>',
      ]),
      `<p>We will read chapters of ${link('https://dataintensive.net/', 'Designing Data-Intensive Applications')} between sessions.</p>`,
    ),
    proposed: 14,
    reviewed: 13,
  },
  {
    key: 'accessibility',
    subject: 'Accessibility from day one',
    mentor: 'elena.rossi',
    status: 'approved',
    maxMentees: 2,
    seniorityRequired: ['junior', 'mid', 'senior'],
    location: 'online',
    interests: ['Accessibility', 'Design Systems', 'Testing'],
    description: html(
      '<p>Build features that work with a keyboard, a screen reader and zoom from the first commit, instead of fixing them after an audit.</p>',
      list('ul', [
        'How screen reader users actually navigate our product',
        'Semantic HTML first, ARIA only when you must',
        'Testing with axe, VoiceOver and NVDA',
      ]),
      `<p>Our baseline is ${link('https://www.w3.org/WAI/standards-guidelines/wcag/', 'WCAG 2.2')} level AA.</p>`,
    ),
    proposed: 10,
    reviewed: 9,
  },
  {
    key: 'threat-modeling',
    subject: 'Threat modelling for product teams',
    mentor: 'daniel.kim',
    status: 'approved',
    maxMentees: 2,
    seniorityRequired: ['mid', 'senior'],
    location: 'in-person',
    interests: ['Security', 'System Design'],
    description: html(
      '<p>A lightweight way to ask <strong>what could go wrong?</strong> during design, without a week of paperwork.</p>',
      '<p>We will run STRIDE workshops on two features your team is about to build, then turn the findings into tickets.</p>',
      `<p>Background: ${link('https://owasp.org/www-community/Threat_Modeling', 'Threat Modeling on OWASP')}.</p>`,
    ),
    proposed: 8,
    reviewed: 6,
  },
  {
    key: 'k8s-cert',
    subject: 'Kubernetes certification bootcamp (CKA)',
    mentor: 'priya.sharma',
    status: 'rejected',
    maxMentees: 2,
    seniorityRequired: ['junior', 'mid'],
    location: 'online',
    interests: ['Kubernetes', 'Cloud Architecture'],
    description: html(
      '<p>Six weekly sessions working through the CKA curriculum, with practice exams at the end.</p>',
      list('ul', [
        'Cluster architecture and installation',
        'Workloads, scheduling and networking',
        'Troubleshooting under time pressure',
      ]),
    ),
    rejectionReason:
      'Certification prep is already covered by the learning budget and the CKA study group. Could you reframe it as a 3-6 month mentorship around hands-on platform work?',
    proposed: 20,
    reviewed: 18,
  },
  {
    key: 'rust-backend',
    subject: 'Getting started with Rust for backend services',
    mentor: 'daniel.kim',
    status: 'proposed',
    maxMentees: 2,
    seniorityRequired: ['junior', 'mid'],
    location: 'online',
    interests: ['Rust', 'Distributed Systems'],
    description: html(
      '<p>Write, test and deploy a small HTTP service in Rust, and learn why the borrow checker is on your side.</p>',
      list('ol', [
        'Ownership and borrowing through small exercises',
        'Error handling with <code>Result</code> and the <code>?</code> operator',
        'An HTTP service with <code>axum</code> and <code>tokio</code>',
        'Shipping it to our staging cluster',
      ]),
      `<p>Start with ${link('https://doc.rust-lang.org/book/', 'The Rust Programming Language')}, chapters 1 to 9.</p>`,
    ),
    proposed: 1,
  },
  {
    key: 'ml-for-data',
    subject: 'Practical machine learning for data engineers',
    mentor: 'sofia.lindqvist',
    status: 'proposed',
    maxMentees: 1,
    seniorityRequired: ['mid', 'senior'],
    location: 'both',
    interests: ['Machine Learning', 'Data Engineering', 'Python'],
    description: html(
      '<p>Take a model from a notebook to a scheduled job with monitoring. No PhD required: the focus is on the engineering around the model.</p>',
      list('ul', [
        'Feature pipelines and training data you can reproduce',
        'Evaluating a model honestly',
        'Serving predictions in batch and watching for drift',
      ]),
    ),
    proposed: 3,
  },
]

export const APPLICATIONS: SeedApplication[] = [
  // Secure code review (concluded)
  { topic: 'secure-review', mentee: 'jonas.weber', status: 'accepted', applied: 105, decided: 101 },
  {
    topic: 'secure-review',
    mentee: 'liam.oconnor',
    status: 'rejected',
    rejectionReason:
      "This round assumes a couple of years of backend experience. Let's talk again after your first year on the Orders team.",
    applied: 104,
    decided: 100,
  },
  // Conference talk (concluded)
  {
    topic: 'conference-talk',
    mentee: 'fatima.haddad',
    status: 'accepted',
    applied: 97,
    decided: 94,
  },
  { topic: 'conference-talk', mentee: 'aisha.khan', status: 'accepted', applied: 96, decided: 94 },
  // User research (started): Lucas applied too late and was closed when it started.
  { topic: 'user-research', mentee: 'noah.williams', status: 'accepted', applied: 36, decided: 33 },
  {
    topic: 'user-research',
    mentee: 'lucas.martin',
    status: 'rejected',
    rejectionReason: 'The topic has started',
    applied: 31,
    decided: 28,
  },
  // Data pipelines (started)
  { topic: 'data-pipelines', mentee: 'mei.chen', status: 'accepted', applied: 33, decided: 30 },
  // From engineer to manager (approved, full)
  { topic: 'eng-manager', mentee: 'grace.adeyemi', status: 'accepted', applied: 20, decided: 15 },
  {
    topic: 'eng-manager',
    mentee: 'tom.becker',
    status: 'rejected',
    rejectionReason:
      'I can only take one mentee this round and chose someone already leading a chapter. Happy to chat about management over coffee, and please apply again next round!',
    applied: 19,
    decided: 15,
  },
  // TypeScript (approved, one place left)
  { topic: 'typescript-types', mentee: 'aisha.khan', status: 'accepted', applied: 14, decided: 11 },
  { topic: 'typescript-types', mentee: 'lucas.martin', status: 'pending', applied: 2 },
  // Distributed systems (approved, open)
  { topic: 'distributed-systems', mentee: 'jonas.weber', status: 'pending', applied: 1.5 },
  // Accessibility (approved, open)
  { topic: 'accessibility', mentee: 'fatima.haddad', status: 'pending', applied: 4 },
  { topic: 'accessibility', mentee: 'noah.williams', status: 'pending', applied: 0.5 },
]

export const INVITATIONS: SeedInvitation[] = [
  // Priya has a free place and Liam is looking for someone who knows Go and Kubernetes.
  { topic: 'distributed-systems', mentee: 'liam.oconnor', invited: 3 },
  // Mei is after data engineering, not accessibility.
  { topic: 'accessibility', mentee: 'mei.chen', invited: 6, declined: 5 },
]

export const DISMISSALS: SeedDismissal[] = [
  { topic: 'accessibility', username: 'liam.oconnor', at: 2 },
  { topic: 'distributed-systems', username: 'lucas.martin', at: 1 },
]

export const FEEDBACK: SeedFeedback[] = [
  {
    topic: 'secure-review',
    username: 'daniel.kim',
    rating: 5,
    feedback:
      'A focused, well-prepared mentee. Reviewing real pull requests instead of toy examples worked much better than I expected.',
    given: 11,
  },
  {
    topic: 'secure-review',
    username: 'jonas.weber',
    rating: 5,
    feedback:
      'Exactly what I hoped for. I now read every diff asking where untrusted input comes in, and I have a checklist I use daily.',
    given: 10,
  },
  {
    topic: 'conference-talk',
    username: 'marcus.oyelaran',
    rating: 5,
    feedback:
      'Two very different speakers who both improved a lot. Next time I will start the rehearsals a little earlier.',
    given: 5,
  },
  {
    topic: 'conference-talk',
    username: 'fatima.haddad',
    rating: 4,
    feedback:
      'The dry runs were the most useful part. I would have liked a session on handling questions from the audience.',
    given: 4,
  },
]
