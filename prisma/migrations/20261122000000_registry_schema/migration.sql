-- Registry schema with the public FRED registry's table and column names (fred-db 2.52),
-- so the console can be pointed at a FRED-shaped database. Timestamps are UTC (timestamptz).
-- Deviations from FRED are deliberate and commented where they occur.

CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE enum_object_type (
    id integer PRIMARY KEY,
    name varchar(50) NOT NULL UNIQUE
);

INSERT INTO enum_object_type (id, name) VALUES
    (1, 'contact'), (2, 'nsset'), (3, 'domain'), (4, 'keyset');

CREATE TABLE registrar (
    id serial PRIMARY KEY,
    handle varchar(255) NOT NULL UNIQUE,
    name varchar(1024),
    organization varchar(1024),
    street1 varchar(1024),
    city varchar(1024),
    postalcode varchar(32),
    country char(2),
    telephone varchar(32),
    email varchar(1024),
    url varchar(1024),
    system boolean NOT NULL DEFAULT false,
    is_internal boolean NOT NULL DEFAULT false,
    CONSTRAINT registrar_handle_check CHECK (handle = upper(handle))
);

CREATE TABLE zone (
    id serial PRIMARY KEY,
    fqdn varchar(255) NOT NULL UNIQUE,
    ex_period_min integer NOT NULL,
    ex_period_max integer NOT NULL,
    val_period integer NOT NULL DEFAULT 0,
    dots_max integer NOT NULL DEFAULT 1,
    enum_zone boolean NOT NULL DEFAULT false
);

-- One row per object ever created; kept after deletion (erdate set, `object` row removed).
CREATE TABLE object_registry (
    id serial PRIMARY KEY,
    roid varchar(255) NOT NULL UNIQUE,
    type smallint NOT NULL REFERENCES enum_object_type (id),
    name varchar(255) NOT NULL,
    crid integer NOT NULL REFERENCES registrar (id),
    crdate timestamptz NOT NULL DEFAULT now(),
    erdate timestamptz,
    CONSTRAINT object_registry_name_case_check CHECK (
        (type = 3 AND name = lower(name)) OR (type <> 3 AND name = upper(name))
    ),
    CONSTRAINT object_registry_erdate_check CHECK (erdate IS NULL OR erdate >= crdate)
);

-- A name identifies at most one live object of a type (FRED allows reuse after deletion).
CREATE UNIQUE INDEX object_registry_live_name_idx ON object_registry (type, name) WHERE erdate IS NULL;
CREATE INDEX object_registry_name_pattern_idx ON object_registry (name text_pattern_ops);
CREATE INDEX object_registry_type_crdate_idx ON object_registry (type, crdate, id);
CREATE INDEX object_registry_crid_idx ON object_registry (crid);
CREATE INDEX object_registry_erdate_idx ON object_registry (erdate) WHERE erdate IS NOT NULL;

-- Current mutable data of live objects only.
CREATE TABLE object (
    id integer PRIMARY KEY REFERENCES object_registry (id),
    clid integer NOT NULL REFERENCES registrar (id),
    upid integer REFERENCES registrar (id),
    trdate timestamptz,
    update timestamptz,
    authinfopw varchar(300)
);

CREATE INDEX object_clid_idx ON object (clid);

CREATE TABLE contact (
    id integer PRIMARY KEY REFERENCES object (id),
    name varchar(1024),
    organization varchar(1024),
    street1 varchar(1024),
    street2 varchar(1024),
    street3 varchar(1024),
    city varchar(1024),
    stateorprovince varchar(1024),
    postalcode varchar(32),
    country char(2),
    telephone varchar(64),
    fax varchar(64),
    email varchar(1024),
    notifyemail varchar(1024),
    vat varchar(32),
    ssn varchar(64),
    disclosename boolean NOT NULL DEFAULT true,
    discloseorganization boolean NOT NULL DEFAULT true,
    discloseaddress boolean NOT NULL DEFAULT true,
    disclosetelephone boolean NOT NULL DEFAULT false,
    disclosefax boolean NOT NULL DEFAULT false,
    discloseemail boolean NOT NULL DEFAULT false,
    warning_letter boolean
);

CREATE TABLE nsset (
    id integer PRIMARY KEY REFERENCES object (id),
    checklevel smallint NOT NULL DEFAULT 0
);

CREATE TABLE keyset (
    id integer PRIMARY KEY REFERENCES object (id)
);

CREATE TABLE host (
    id serial PRIMARY KEY,
    nssetid integer NOT NULL REFERENCES nsset (id),
    fqdn varchar(255) NOT NULL,
    CONSTRAINT host_nssetid_fqdn_key UNIQUE (nssetid, fqdn),
    CONSTRAINT host_fqdn_case_check CHECK (fqdn = lower(fqdn))
);

CREATE INDEX host_fqdn_idx ON host (fqdn);

CREATE TABLE host_ipaddr_map (
    id serial PRIMARY KEY,
    hostid integer NOT NULL REFERENCES host (id),
    nssetid integer NOT NULL REFERENCES nsset (id),
    ipaddr inet NOT NULL
);

CREATE INDEX host_ipaddr_map_hostid_idx ON host_ipaddr_map (hostid);
CREATE INDEX host_ipaddr_map_nssetid_idx ON host_ipaddr_map (nssetid);

CREATE TABLE domain (
    id integer PRIMARY KEY REFERENCES object (id),
    zone integer NOT NULL REFERENCES zone (id),
    registrant integer NOT NULL REFERENCES contact (id),
    nsset integer REFERENCES nsset (id),
    exdate date NOT NULL,
    keyset integer REFERENCES keyset (id)
);

CREATE INDEX domain_zone_idx ON domain (zone);
CREATE INDEX domain_registrant_idx ON domain (registrant);
CREATE INDEX domain_nsset_idx ON domain (nsset);
CREATE INDEX domain_keyset_idx ON domain (keyset);
CREATE INDEX domain_exdate_idx ON domain (exdate);

-- ENUM domains only: the validation expiry.
CREATE TABLE enumval (
    domainid integer PRIMARY KEY REFERENCES domain (id),
    exdate date NOT NULL,
    publish boolean NOT NULL DEFAULT false
);

CREATE INDEX enumval_exdate_idx ON enumval (exdate);

-- role 1 = admin contact, role 2 = temp contact (as in libfred).
CREATE TABLE domain_contact_map (
    domainid integer NOT NULL REFERENCES domain (id),
    contactid integer NOT NULL REFERENCES contact (id),
    role integer NOT NULL DEFAULT 1,
    PRIMARY KEY (domainid, contactid),
    CONSTRAINT domain_contact_map_role_check CHECK (role IN (1, 2))
);

CREATE INDEX domain_contact_map_contactid_idx ON domain_contact_map (contactid);

CREATE TABLE nsset_contact_map (
    nssetid integer NOT NULL REFERENCES nsset (id),
    contactid integer NOT NULL REFERENCES contact (id),
    PRIMARY KEY (nssetid, contactid)
);

CREATE INDEX nsset_contact_map_contactid_idx ON nsset_contact_map (contactid);

CREATE TABLE keyset_contact_map (
    keysetid integer NOT NULL REFERENCES keyset (id),
    contactid integer NOT NULL REFERENCES contact (id),
    PRIMARY KEY (keysetid, contactid)
);

CREATE INDEX keyset_contact_map_contactid_idx ON keyset_contact_map (contactid);

-- The state catalogue. The console reads it at run time and never copies it.
CREATE TABLE enum_object_states (
    id integer PRIMARY KEY,
    name varchar(50) NOT NULL UNIQUE,
    types integer[] NOT NULL,
    manual boolean NOT NULL,
    external boolean NOT NULL,
    importance integer,
    CONSTRAINT enum_object_states_name_delimiter_check CHECK (strpos(name, ',') = 0)
);

CREATE TABLE enum_object_states_desc (
    state_id integer NOT NULL REFERENCES enum_object_states (id),
    lang char(2) NOT NULL,
    description varchar(255) NOT NULL,
    PRIMARY KEY (state_id, lang)
);

INSERT INTO enum_object_states (id, name, types, manual, external, importance) VALUES
    (1, 'serverDeleteProhibited', '{1,2,3,4}', true, true, 32768),
    (2, 'serverRenewProhibited', '{3}', true, true, 16384),
    (3, 'serverTransferProhibited', '{1,2,3,4}', true, true, 4096),
    (4, 'serverUpdateProhibited', '{1,2,3,4}', true, true, 2048),
    (5, 'serverOutzoneManual', '{3}', true, true, 128),
    (6, 'serverInzoneManual', '{3}', true, true, 256),
    (7, 'serverBlocked', '{1,3}', true, true, 65536),
    (8, 'expirationWarning', '{3}', false, false, NULL),
    (9, 'expired', '{3}', false, true, 2),
    (10, 'unguarded', '{3}', false, false, NULL),
    (11, 'validationWarning1', '{3}', false, false, NULL),
    (12, 'validationWarning2', '{3}', false, false, NULL),
    (13, 'notValidated', '{3}', false, true, 512),
    (14, 'nssetMissing', '{3}', false, false, NULL),
    (15, 'outzone', '{3}', false, true, 8),
    (16, 'linked', '{1,2,4}', false, true, 1024),
    (17, 'deleteCandidate', '{1,2,3,4}', false, true, NULL),
    (18, 'serverRegistrantChangeProhibited', '{3}', true, true, 8192);

INSERT INTO enum_object_states_desc (state_id, lang, description) VALUES
    (1, 'EN', 'Deletion forbidden'),
    (1, 'CS', 'Není povoleno smazání'),
    (2, 'EN', 'Registration renewal forbidden'),
    (2, 'CS', 'Není povoleno prodloužení registrace objektu'),
    (3, 'EN', 'Sponsoring registrar change forbidden'),
    (3, 'CS', 'Není povolena změna určeného registrátora'),
    (4, 'EN', 'Update forbidden'),
    (4, 'CS', 'Není povolena změna údajů'),
    (5, 'EN', 'The domain is administratively kept out of zone'),
    (5, 'CS', 'Doména je administrativně vyřazena ze zóny'),
    (6, 'EN', 'The domain is administratively kept in zone'),
    (6, 'CS', 'Doména je administrativně zařazena do zóny'),
    (7, 'EN', 'Administratively blocked'),
    (7, 'CS', 'Administrativně blokováno'),
    (8, 'EN', 'The domain expires in 30 days'),
    (8, 'CS', 'Doména expiruje do 30 dní'),
    (9, 'EN', 'Domain expired'),
    (9, 'CS', 'Doména je po expiraci'),
    (10, 'EN', 'The domain is 30 days after expiration'),
    (10, 'CS', 'Doména je 30 dnů po expiraci'),
    (11, 'EN', 'The domain validation expires in 30 days'),
    (11, 'CS', 'Validace domény skončí za 30 dní'),
    (12, 'EN', 'The domain validation expires in 15 days'),
    (12, 'CS', 'Validace domény skončí za 15 dní'),
    (13, 'EN', 'Domain not validated'),
    (13, 'CS', 'Doména není validována'),
    (14, 'EN', 'The domain doesn''t have associated nsset'),
    (14, 'CS', 'Doména nemá přiřazen nsset'),
    (15, 'EN', 'The domain isn''t generated in the zone'),
    (15, 'CS', 'Doména není generována do zóny'),
    (16, 'EN', 'Has relation to other records in the registry'),
    (16, 'CS', 'Je navázán na další záznam v registru'),
    (17, 'EN', 'To be deleted'),
    (17, 'CS', 'Určeno ke zrušení'),
    (18, 'EN', 'Registrant change forbidden'),
    (18, 'CS', 'Není povolena změna držitele');

-- Materialised state history. valid_to NULL = in force now.
CREATE TABLE object_state (
    id serial PRIMARY KEY,
    object_id integer NOT NULL REFERENCES object_registry (id),
    state_id integer NOT NULL REFERENCES enum_object_states (id),
    valid_from timestamptz NOT NULL,
    valid_to timestamptz,
    CONSTRAINT object_state_period_check CHECK (valid_to IS NULL OR valid_to >= valid_from)
);

-- At most one open interval per object and state (FRED's object_state_now_idx).
CREATE UNIQUE INDEX object_state_now_idx ON object_state (object_id, state_id) WHERE valid_to IS NULL;
-- An object's history, in order.
CREATE INDEX object_state_object_id_idx ON object_state (object_id, state_id, valid_from);
-- "Has state X now" over millions of objects: an index-only scan of the open rows of one state.
CREATE INDEX object_state_open_by_state_idx ON object_state (state_id, object_id) WHERE valid_to IS NULL;
-- "Had state X at instant T" and "at any time in [A, B)": a range search within one state.
CREATE INDEX object_state_period_idx ON object_state
    USING gist (state_id, tstzrange(valid_from, valid_to, '[)'));

CREATE VIEW object_state_now AS
    SELECT object_id, array_agg(state_id ORDER BY state_id) AS states
      FROM object_state
     WHERE valid_to IS NULL
     GROUP BY object_id;

-- Requests for manual states. Rows are never deleted; canceled marks a cancellation.
CREATE TABLE object_state_request (
    id serial PRIMARY KEY,
    object_id integer NOT NULL REFERENCES object_registry (id),
    state_id integer NOT NULL REFERENCES enum_object_states (id),
    valid_from timestamptz NOT NULL DEFAULT now(),
    valid_to timestamptz,
    crdate timestamptz NOT NULL DEFAULT now(),
    canceled timestamptz,
    CONSTRAINT object_state_request_period_check CHECK (valid_to IS NULL OR valid_to > valid_from)
);

CREATE INDEX object_state_request_object_id_idx ON object_state_request (object_id, state_id, valid_from);
-- Requests that have not been canceled, by state and start: pending and in-force lookups.
CREATE INDEX object_state_request_active_idx ON object_state_request (state_id, valid_from)
    WHERE canceled IS NULL;

CREATE TABLE object_state_request_reason (
    object_state_request_id integer PRIMARY KEY REFERENCES object_state_request (id),
    reason_creation varchar(300),
    reason_cancellation varchar(300)
);
