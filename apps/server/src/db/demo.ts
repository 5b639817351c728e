/**
 * Stable names other demo generators rely on (e.g. demo CDR traffic in modules/cdr): keep them.
 *
 *   carrier          trunk                 direction  host:port             rate table
 *   Demo Client      Demo Client In        ingress    198.51.100.23:5060    Demo Client A-Z (the SDF deck)
 *   Demo Vendor      Demo Vendor Out       egress     203.0.113.40:5060     Demo Vendor A-Z (80 % of SDF)
 *   Demo Vendor Two  Demo Vendor Two Out   egress     203.0.113.41:5060     Demo Vendor Two A-Z (90 % of
 *                                                                           SDF; 70 % for UK and Germany)
 *
 * Calls come in from 198.51.100.23 on "Demo Client In", whose routing plan "Demo Routing Plan" sends
 * every number to the LCR route "Demo LCR" over both vendor trunks: UK and German numbers go to Demo
 * Vendor Two first, every other destination to Demo Vendor first. Numbers to try (README): 4930123456
 * (Germany, Berlin), 442071234567 (UK, London), 33123456789 (France, Paris), 12125550100 (USA).
 *
 * Demo data of `tandem seed-demo`: one admin, a client and a vendor carrier with portal users, an
 * agent with a portal user and a referral key, and some living data around them. Everything here is
 * declarative; `demo-seed.ts` writes it idempotently (each record is looked up by its natural key and
 * only created when missing). Later areas add their records here (trunks, rate tables, CDRs ...) and a
 * step to the seeder.
 *
 * Addresses are from the documentation ranges (RFC 5737) and e-mails use example.com (RFC 2606).
 */

export interface DemoLogin {
  name: string;
  password: string;
  email: string;
  first_name: string;
  last_name: string;
}

export interface DemoInvoice {
  invoice_number: string;
  /** Days before the seeding that the invoice was issued; it covers the calendar month before that day. */
  issued_days_ago: number;
  amount: string;
  paid_amount: string;
  /** Days after the invoice date. */
  due_days: number;
}

/** A rate table of the demo: the SDF deck's rates scaled by a whole percent (exact), per country if given. */
export interface DemoRateTable {
  name: string;
  percent: number;
  /** Percent per deck country (the destination's name before " - ", upper case as in the deck). */
  countries?: Record<string, number>;
  /** Trunks (by name) that get this table when they have none. */
  trunks: string[];
}

export interface DemoRates {
  /** The deck, relative to the repository root (datasets/README.md names origin and licence). */
  deck: string;
  code_deck: string;
  /** Rates take effect this many days before the seeding. */
  effective_days_ago: number;
  tables: DemoRateTable[];
}

/** A trunk of a demo carrier: customers send from an ingress trunk's host, vendors receive on an egress trunk's. */
export interface DemoTrunk {
  name: string;
  direction: 'ingress' | 'egress';
  hosts: { host: string; port: number | null }[];
  tech_prefix: string;
  call_limit: number | null;
}

export interface DemoCarrier {
  name: string;
  company: string;
  client_type: 'client' | 'vendor';
  company_type: 'termination' | 'origination';
  mode: 'prepaid' | 'postpaid';
  balance: string;
  credit_limit: string;
  /** Whether the demo agent brought this carrier in. */
  via_agent: boolean;
  login: DemoLogin;
  messages: { type: string; subject: string; content: string; is_read: boolean }[];
  /** {due_in:NUMBER} in the content is replaced by the days until that invoice's due date. */
  alerts: { level: string; content: string; status: 'new' | 'viewed' | 'read' }[];
  invoices: DemoInvoice[];
  tickets: {
    department: string;
    subject: string;
    content: string;
    status: 'open' | 'waiting' | 'resolved';
  }[];
  /** Sign-ins recorded for the portal user when it is created (minutes before the seeding). */
  signins: { minutes_ago: number; result: 'success' | 'failed'; ip: string }[];
  trunks: DemoTrunk[];
}

export interface DemoAgent {
  agent_name: string;
  email: string;
  commission_method: 'profit' | 'revenue';
  commission_percent: string;
  frequency: 'daily' | 'weekly' | 'monthly';
  /** The first day whose traffic earns commission, this many days before the seeding. */
  commission_since_days_ago: number;
  referral_key: string;
  login: DemoLogin;
}

export interface DemoSwitch {
  name: string;
  lan_ip: string;
  active_call_ip: string;
  cli_ip: string;
  cli_port: number;
  connected: boolean;
  sip_hosts: { host_name: string; sip_ip: string; sip_port: number }[];
}

/** The demo customer's routing: an LCR dynamic route over vendor trunks and a plan sending every number to it. */
export interface DemoRouting {
  dynamic_route: { name: string; rule: 'lcr' | 'largest_asr' | 'largest_acd'; trunks: string[] };
  plan: { name: string; prefix: string };
  /** Ingress trunks (by name) that get the plan when they have none. */
  ingress_trunks: string[];
}

export interface DemoData {
  admin: DemoLogin;
  agent: DemoAgent;
  carriers: DemoCarrier[];
  switches: DemoSwitch[];
  routing?: DemoRouting;
  rates?: DemoRates;
}

export const DEMO: DemoData = {
  admin: {
    name: 'demo_admin',
    password: 'Demo#Admin26',
    email: 'admin@demo.example.com',
    first_name: 'Dana',
    last_name: 'Operator',
  },
  agent: {
    agent_name: 'Demo Agent',
    email: 'agent@demo.example.com',
    // Weekly, from the start of the demo month: the demo traffic gives about four closed weeks of
    // commission (5 % of the demo client's revenue) when seed-demo ends.
    commission_method: 'revenue',
    commission_percent: '5',
    frequency: 'weekly',
    commission_since_days_ago: 31,
    referral_key: 'demo-agent-referral-key',
    login: {
      name: 'demo_agent',
      password: 'Demo#Agent26',
      email: 'agent@demo.example.com',
      first_name: 'Alex',
      last_name: 'Reseller',
    },
  },
  carriers: [
    {
      name: 'Demo Client',
      company: 'Demo Client Telecom Ltd',
      client_type: 'client',
      company_type: 'termination',
      // Postpaid with a credit limit, as wholesale customers mostly are: the demo month's traffic
      // (about 200,000 attempts at the SDF deck's rates) stays well inside it.
      mode: 'postpaid',
      balance: '1250.500000',
      credit_limit: '150000.000000',
      via_agent: true,
      login: {
        name: 'demo_client',
        password: 'Demo#Client26',
        email: 'noc@client.demo.example.com',
        first_name: 'Chris',
        last_name: 'Customer',
      },
      messages: [
        {
          type: 'notice',
          subject: 'Welcome to Tandem',
          content: 'Your account is active. Your trunks and rates are listed in the portal.',
          is_read: true,
        },
        {
          type: 'rate',
          subject: 'Rate change notice',
          content: 'New rates for Germany mobile take effect in 7 days.',
          is_read: false,
        },
        {
          type: 'maintenance',
          subject: 'Planned maintenance',
          content: 'Switch maintenance on Sunday 02:00-03:00 UTC; calls fail over to the second SIP host.',
          is_read: false,
        },
      ],
      alerts: [
        { level: 'warning', content: 'Balance below 2,000.00 USD', status: 'new' },
        {
          level: 'info',
          content: 'Invoice DEMO-C-0003 is due in {due_in:DEMO-C-0003} days',
          status: 'viewed',
        },
      ],
      invoices: [
        {
          invoice_number: 'DEMO-C-0001',
          issued_days_ago: 65,
          amount: '842.120000',
          paid_amount: '842.120000',
          due_days: 15,
        },
        {
          invoice_number: 'DEMO-C-0002',
          issued_days_ago: 35,
          amount: '915.400000',
          paid_amount: '500.000000',
          due_days: 15,
        },
        {
          invoice_number: 'DEMO-C-0003',
          issued_days_ago: 5,
          amount: '1033.750000',
          paid_amount: '0',
          due_days: 15,
        },
      ],
      tickets: [
        {
          department: 'Admin',
          subject: 'Calls to UK mobile fail with 503',
          content: 'Since this morning about 20 percent of calls to +447 fail with SIP 503.',
          status: 'waiting',
        },
        {
          department: 'Billing',
          subject: 'Copy of invoice DEMO-C-0001',
          content: 'Please send a copy to our accounts department.',
          status: 'resolved',
        },
      ],
      signins: [
        { minutes_ago: 180, result: 'success', ip: '198.51.100.23' },
        { minutes_ago: 120, result: 'failed', ip: '198.51.100.23' },
        { minutes_ago: 119, result: 'success', ip: '198.51.100.23' },
      ],
      trunks: [
        {
          name: 'Demo Client In',
          direction: 'ingress',
          hosts: [{ host: '198.51.100.23', port: 5060 }],
          tech_prefix: '',
          call_limit: 100,
        },
      ],
    },
    {
      name: 'Demo Vendor',
      company: 'Demo Vendor Carrier AG',
      client_type: 'vendor',
      company_type: 'termination',
      mode: 'postpaid',
      balance: '-310.250000',
      credit_limit: '5000.000000',
      via_agent: false,
      login: {
        name: 'demo_vendor',
        password: 'Demo#Vendor26',
        email: 'noc@vendor.demo.example.com',
        first_name: 'Vera',
        last_name: 'Supplier',
      },
      messages: [
        {
          type: 'notice',
          subject: 'Welcome to Tandem',
          content: 'Your egress trunks are listed in the portal.',
          is_read: false,
        },
      ],
      alerts: [
        { level: 'info', content: 'ASR to your trunk dropped below 40 percent last hour', status: 'new' },
      ],
      invoices: [],
      tickets: [],
      signins: [{ minutes_ago: 240, result: 'success', ip: '203.0.113.40' }],
      trunks: [
        {
          name: 'Demo Vendor Out',
          direction: 'egress',
          hosts: [{ host: '203.0.113.40', port: 5060 }],
          tech_prefix: '',
          call_limit: 500,
        },
      ],
    },
    {
      name: 'Demo Vendor Two',
      company: 'Demo Vendor Two Networks BV',
      client_type: 'vendor',
      company_type: 'termination',
      mode: 'postpaid',
      balance: '0',
      credit_limit: '5000.000000',
      via_agent: false,
      login: {
        name: 'demo_vendor_two',
        password: 'Demo#Vendor26',
        email: 'noc@vendor-two.demo.example.com',
        first_name: 'Victor',
        last_name: 'Wholesale',
      },
      messages: [],
      alerts: [],
      invoices: [],
      tickets: [],
      signins: [],
      trunks: [
        {
          name: 'Demo Vendor Two Out',
          direction: 'egress',
          hosts: [{ host: '203.0.113.41', port: 5060 }],
          tech_prefix: '',
          call_limit: 300,
        },
      ],
    },
  ],
  routing: {
    dynamic_route: { name: 'Demo LCR', rule: 'lcr', trunks: ['Demo Vendor Out', 'Demo Vendor Two Out'] },
    plan: { name: 'Demo Routing Plan', prefix: '' },
    ingress_trunks: ['Demo Client In'],
  },
  rates: {
    deck: 'datasets/rate-decks/sdf-outbound-rates.csv',
    code_deck: 'Demo SDF Code Deck',
    effective_days_ago: 30,
    tables: [
      { name: 'Demo Client A-Z', percent: 100, trunks: ['Demo Client In'] },
      { name: 'Demo Vendor A-Z', percent: 80, trunks: ['Demo Vendor Out'] },
      {
        name: 'Demo Vendor Two A-Z',
        percent: 90,
        countries: { 'UNITED KINGDOM': 70, GERMANY: 70 },
        trunks: ['Demo Vendor Two Out'],
      },
    ],
  },
  switches: [
    {
      name: 'demo-switch-1',
      lan_ip: '192.0.2.10',
      active_call_ip: '192.0.2.10',
      cli_ip: '192.0.2.10',
      cli_port: 4320,
      connected: true,
      sip_hosts: [
        { host_name: 'sip-a.demo.example.com', sip_ip: '192.0.2.20', sip_port: 5060 },
        { host_name: 'sip-b.demo.example.com', sip_ip: '192.0.2.21', sip_port: 5060 },
      ],
    },
  ],
};
