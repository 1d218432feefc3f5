-- console:registry fred-db 2.52.0
-- The registry tables the console reads and writes, shaped exactly as a FRED registry database
-- (fred-db 2.52.0) has them: same names, column order, types, NULLs, defaults, keys, checks and
-- indexes, and FRED's rows in the enumeration tables. An empty database set up by the console
-- therefore looks like an adopted FRED database, and one code path serves both.
-- Written from the facts of that schema (lib/db/fred-schema.test.ts compares the result with a
-- database built by FRED's own scripts); FRED's source is not copied here.
--
-- Deliberately not here:
--  * FRED's triggers, trigger functions and update_object_states(): the console brings its own
--    state engine in a later migration.
--  * The pg_trgm GIN indexes object_registry_{contact,nsset,domain,keyset}_name_trgm_idx: FRED
--    builds them CONCURRENTLY, which cannot run inside a migration's transaction, and together
--    with FRED's unaccent helpers they serve FRED's own search only.
--  * The rows of enum_country and the foreign keys registrar.country and contact.country -> it:
--    without the country list those keys would reject the demo data, and the console does not
--    rely on them.
--  * Every other FRED table (history of the objects, DNS keys, mail, invoicing, ...). Their
--    foreign keys point at tables in this file, not the other way round, except for history and
--    object_history, which are created here (columns and keys only) because object_registry and
--    object_state refer to them.
-- Instants are `timestamp` without time zone holding UTC wall-clock time, as in FRED.

-- Object types; FRED refers to them by id (1 contact, 2 nsset, 3 domain, 4 keyset).
CREATE TABLE public.enum_object_type (
    id integer NOT NULL,
    name text NOT NULL,
    CONSTRAINT enum_object_type_pkey PRIMARY KEY (id),
    CONSTRAINT enum_object_type_name_key UNIQUE (name)
);

INSERT INTO public.enum_object_type (id, name) VALUES
    (1, 'contact'),
    (2, 'nsset'),
    (3, 'domain'),
    (4, 'keyset');

-- Type id by type name, NULL for an unknown name. Used by object_registry's checks; declared
-- IMMUTABLE with a fixed search_path like FRED's, so those checks behave the same.
CREATE FUNCTION public.get_object_type_id(text) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT
    SET search_path = public
AS $fn$
    SELECT t.id FROM public.enum_object_type AS t WHERE t.name = $1
$fn$;

-- Host name syntax as FRED checks it: labels of 1 to 63 letters, digits and hyphens (any case),
-- not starting or ending with a hyphen, at most 254 characters before an optional final dot.
-- Empty input is false and NULL input NULL; a lone "." has no labels and gives NULL (so a CHECK
-- lets it pass), which is FRED's behaviour too.
CREATE FUNCTION public.domain_name_syntax_check(fqdn text) RETURNS boolean
    LANGUAGE sql STRICT
AS $fn$
    SELECT CASE
        WHEN fqdn = '' THEN false
        ELSE (
            SELECT bool_and(
                       length(part.label) BETWEEN 1 AND 63
                       AND part.label ~* '^[a-z0-9-]+$'
                       AND part.label NOT LIKE '-%'
                       AND part.label NOT LIKE '%-'
                       AND length(bare.name) <= 254)
            FROM (SELECT CASE WHEN fqdn LIKE '%.' THEN left(fqdn, -1) ELSE fqdn END) AS bare (name)
            CROSS JOIN LATERAL unnest(string_to_array(bare.name, '.')) AS part (label)
        )
    END
$fn$;

-- Country codes. Kept empty and without foreign keys pointing at it (see above); FRED's columns
-- so that a later import of the list fits.
CREATE TABLE public.enum_country (
    id char(2) NOT NULL,
    country varchar(1024) NOT NULL,
    country_cs varchar(1024),
    CONSTRAINT enum_country_pkey PRIMARY KEY (id),
    CONSTRAINT enum_country_country_key UNIQUE (country),
    CONSTRAINT enum_country_country_cs_key UNIQUE (country_cs)
);

-- Kinds of a contact's identification number (contact.ssntype).
CREATE TABLE public.enum_ssntype (
    id serial NOT NULL,
    type varchar(8) NOT NULL,
    description varchar(64) NOT NULL,
    CONSTRAINT enum_ssntype_pkey PRIMARY KEY (id),
    CONSTRAINT enum_ssntype_type_key UNIQUE (type),
    CONSTRAINT enum_ssntype_description_key UNIQUE (description)
);

-- FRED's rows, its spelling included.
INSERT INTO public.enum_ssntype (id, type, description) VALUES
    (1, 'RC', 'born number'),
    (2, 'OP', 'identity card number'),
    (3, 'PASS', 'passwport'),
    (4, 'ICO', 'organization identification number'),
    (5, 'MPSV', 'social system identification'),
    (6, 'BIRTHDAY', 'day of birth');
-- The rows were given explicit ids; the next generated one follows them.
SELECT setval('public.enum_ssntype_id_seq', 6);

CREATE TABLE public.zone (
    id serial NOT NULL,
    fqdn varchar(255) NOT NULL,
    ex_period_min integer NOT NULL,
    ex_period_max integer NOT NULL,
    val_period integer NOT NULL,
    dots_max integer NOT NULL DEFAULT 1,
    enum_zone boolean DEFAULT false,
    warning_letter boolean NOT NULL DEFAULT true,
    CONSTRAINT zone_pkey PRIMARY KEY (id),
    CONSTRAINT zone_fqdn_key UNIQUE (fqdn)
);

-- Registrars, with FRED's billing and address columns (several NOT NULL, non-blank).
CREATE TABLE public.registrar (
    id serial NOT NULL,
    ico varchar(50),
    dic varchar(50) NOT NULL,
    varsymb char(10),
    vat boolean NOT NULL DEFAULT true,
    handle varchar(255) NOT NULL,
    name varchar(1024) NOT NULL,
    organization varchar(1024) NOT NULL,
    street1 varchar(1024) NOT NULL,
    street2 varchar(1024),
    street3 varchar(1024),
    city varchar(1024) NOT NULL,
    stateorprovince varchar(1024),
    postalcode varchar(32) NOT NULL,
    country char(2), -- no foreign key to enum_country, see above
    telephone varchar(32) NOT NULL,
    fax varchar(32),
    email varchar(1024) NOT NULL,
    url varchar(1024) NOT NULL,
    system boolean NOT NULL DEFAULT false,
    regex varchar(30) DEFAULT NULL,
    is_internal boolean NOT NULL DEFAULT false,
    uuid uuid NOT NULL DEFAULT gen_random_uuid(),
    CONSTRAINT registrar_pkey PRIMARY KEY (id),
    CONSTRAINT registrar_varsymb_key UNIQUE (varsymb),
    CONSTRAINT registrar_handle_key UNIQUE (handle),
    CONSTRAINT registrar_uuid_key UNIQUE (uuid),
    CONSTRAINT registrar_dic_check CHECK (trim(dic) <> ''),
    CONSTRAINT registrar_handle_check CHECK (trim(handle) <> ''),
    CONSTRAINT registrar_name_check CHECK (trim(name) <> ''),
    CONSTRAINT registrar_organization_check CHECK (trim(organization) <> ''),
    CONSTRAINT registrar_street1_check CHECK (trim(street1) <> ''),
    -- a third address line only after a second one
    CONSTRAINT registrar_street23_check CHECK ((trim(street2) <> '') IS TRUE OR (trim(street3) <> '') IS NOT TRUE),
    CONSTRAINT registrar_city_check CHECK (trim(city) <> ''),
    CONSTRAINT registrar_postalcode_check CHECK (trim(postalcode) <> ''),
    CONSTRAINT registrar_telephone_check CHECK (trim(telephone) <> ''),
    CONSTRAINT registrar_email_check CHECK (trim(email) <> ''),
    CONSTRAINT registrar_url_check CHECK (trim(url) <> '')
);

-- FRED's history heads; object_registry and object_history point here. Columns and keys only.
CREATE TABLE public.history (
    id serial NOT NULL,
    valid_from timestamp NOT NULL DEFAULT now(),
    valid_to timestamp,
    next integer,
    request_id bigint,
    uuid uuid NOT NULL DEFAULT gen_random_uuid(),
    CONSTRAINT history_pkey PRIMARY KEY (id),
    CONSTRAINT history_uuid_key UNIQUE (uuid)
);
CREATE INDEX history_action_valid_from_idx ON public.history (valid_from);
CREATE UNIQUE INDEX history_next_idx ON public.history (next);

-- Every object ever registered, deleted ones too (erdate set). Domain names are lower case and
-- valid host names; handles of other objects are upper case.
CREATE TABLE public.object_registry (
    id serial NOT NULL,
    roid varchar(255) NOT NULL,
    type smallint,
    name varchar(255) NOT NULL,
    crid integer NOT NULL,
    crdate timestamp NOT NULL DEFAULT now(),
    erdate timestamp,
    crhistoryid integer,
    historyid integer,
    uuid uuid NOT NULL DEFAULT gen_random_uuid(),
    CONSTRAINT object_registry_pkey PRIMARY KEY (id),
    CONSTRAINT object_registry_roid_key UNIQUE (roid),
    CONSTRAINT object_registry_uuid_key UNIQUE (uuid),
    CONSTRAINT object_registry_crid_fkey FOREIGN KEY (crid) REFERENCES public.registrar (id),
    CONSTRAINT object_registry_crhistoryid_fkey FOREIGN KEY (crhistoryid) REFERENCES public.history (id),
    CONSTRAINT object_registry_historyid_fkey FOREIGN KEY (historyid) REFERENCES public.history (id),
    CONSTRAINT object_registry_type_fkey FOREIGN KEY (type) REFERENCES public.enum_object_type (id),
    CONSTRAINT name_case_check CHECK (
        (type <> public.get_object_type_id('domain') AND name = upper(name))
        OR (type = public.get_object_type_id('domain') AND name = lower(name))),
    CONSTRAINT domain_name_check CHECK (type <> public.get_object_type_id('domain') OR public.domain_name_syntax_check(name))
);
-- Handle look-ups per type (contact 1, nsset 2, keyset 4) and domain names (3), as FRED has them.
CREATE INDEX object_registry_upper_name_1_idx ON public.object_registry (upper(name)) WHERE type = 1;
CREATE INDEX object_registry_upper_name_2_idx ON public.object_registry (upper(name)) WHERE type = 2;
CREATE INDEX object_registry_name_3_idx ON public.object_registry (name) WHERE type = 3;
CREATE INDEX object_registry_upper_name_4_idx ON public.object_registry (upper(name)) WHERE type = 4;
CREATE INDEX object_registry_historyid_idx ON public.object_registry (historyid);
-- One living object per name and type.
CREATE UNIQUE INDEX object_registry_name_type_uniq ON public.object_registry (name, type) WHERE erdate IS NULL;

-- Current data common to all living objects.
CREATE TABLE public.object (
    id integer NOT NULL,
    clid integer NOT NULL,
    upid integer,
    trdate timestamp,
    update timestamp,
    authinfopw varchar(300),
    CONSTRAINT object_pkey PRIMARY KEY (id),
    CONSTRAINT object_id_fkey FOREIGN KEY (id) REFERENCES public.object_registry (id),
    CONSTRAINT object_clid_fkey FOREIGN KEY (clid) REFERENCES public.registrar (id),
    CONSTRAINT object_upid_fkey FOREIGN KEY (upid) REFERENCES public.registrar (id)
);
CREATE INDEX object_upid_idx ON public.object (upid);
CREATE INDEX object_clid_idx ON public.object (clid);

CREATE TABLE public.contact (
    id integer NOT NULL,
    name varchar(1024),
    organization varchar(1024),
    street1 varchar(1024),
    street2 varchar(1024),
    street3 varchar(1024),
    city varchar(1024),
    stateorprovince varchar(1024),
    postalcode varchar(32),
    country char(2), -- no foreign key to enum_country, see above
    telephone varchar(64),
    fax varchar(64),
    email varchar(1024),
    disclosename boolean NOT NULL DEFAULT true,
    discloseorganization boolean NOT NULL DEFAULT true,
    discloseaddress boolean NOT NULL DEFAULT true,
    disclosetelephone boolean NOT NULL DEFAULT false,
    disclosefax boolean NOT NULL DEFAULT false,
    discloseemail boolean NOT NULL DEFAULT false,
    notifyemail varchar(1024),
    vat varchar(32),
    ssn varchar(64),
    ssntype integer,
    disclosevat boolean NOT NULL DEFAULT false,
    discloseident boolean NOT NULL DEFAULT false,
    disclosenotifyemail boolean NOT NULL DEFAULT false,
    warning_letter boolean,
    CONSTRAINT contact_pkey PRIMARY KEY (id),
    CONSTRAINT contact_id_fkey FOREIGN KEY (id) REFERENCES public.object (id),
    CONSTRAINT contact_ssntype_fkey FOREIGN KEY (ssntype) REFERENCES public.enum_ssntype (id)
);
-- FRED's index for finding contacts by (trimmed) name.
CREATE INDEX contact_name_coalesce_trim_idx ON public.contact (trim(BOTH ' ' FROM coalesce(name, '')));

CREATE TABLE public.nsset (
    id integer NOT NULL,
    checklevel smallint DEFAULT 0,
    CONSTRAINT nsset_pkey PRIMARY KEY (id),
    CONSTRAINT nsset_id_fkey FOREIGN KEY (id) REFERENCES public.object (id)
);

CREATE TABLE public.nsset_contact_map (
    nssetid integer NOT NULL,
    contactid integer NOT NULL,
    CONSTRAINT nsset_contact_map_pkey PRIMARY KEY (nssetid, contactid),
    CONSTRAINT nsset_contact_map_nssetid_fkey FOREIGN KEY (nssetid) REFERENCES public.nsset (id) ON UPDATE CASCADE ON DELETE CASCADE,
    CONSTRAINT nsset_contact_map_contactid_fkey FOREIGN KEY (contactid) REFERENCES public.contact (id) ON UPDATE CASCADE
);
CREATE INDEX nsset_contact_map_contactid_idx ON public.nsset_contact_map (contactid);

-- Name servers of an nsset; the same host name may serve several nssets.
CREATE TABLE public.host (
    id serial NOT NULL,
    nssetid integer,
    fqdn varchar(255) NOT NULL,
    CONSTRAINT host_pkey PRIMARY KEY (id),
    CONSTRAINT host_nssetid_fqdn_key UNIQUE (nssetid, fqdn),
    CONSTRAINT host_nssetid_fkey FOREIGN KEY (nssetid) REFERENCES public.nsset (id) ON UPDATE CASCADE,
    CONSTRAINT domain_name_check CHECK (public.domain_name_syntax_check(fqdn))
);
CREATE INDEX host_fqdn_idx ON public.host (fqdn);

CREATE TABLE public.host_ipaddr_map (
    id serial NOT NULL,
    hostid integer NOT NULL,
    nssetid integer NOT NULL,
    ipaddr inet NOT NULL,
    CONSTRAINT host_ipaddr_map_pkey PRIMARY KEY (id),
    CONSTRAINT host_ipaddr_map_hostid_fkey FOREIGN KEY (hostid) REFERENCES public.host (id) ON UPDATE CASCADE ON DELETE CASCADE,
    CONSTRAINT host_ipaddr_map_nssetid_fkey FOREIGN KEY (nssetid) REFERENCES public.nsset (id) ON UPDATE CASCADE ON DELETE CASCADE
);
CREATE INDEX host_ipaddr_map_hostid_idx ON public.host_ipaddr_map (hostid);
CREATE INDEX host_ipaddr_map_nssetid_idx ON public.host_ipaddr_map (nssetid);

CREATE TABLE public.keyset (
    id integer NOT NULL,
    CONSTRAINT keyset_pkey PRIMARY KEY (id),
    CONSTRAINT keyset_id_fkey FOREIGN KEY (id) REFERENCES public.object (id)
);

CREATE TABLE public.keyset_contact_map (
    keysetid integer NOT NULL,
    contactid integer NOT NULL,
    CONSTRAINT keyset_contact_map_pkey PRIMARY KEY (contactid, keysetid),
    CONSTRAINT keyset_contact_map_keysetid_fkey FOREIGN KEY (keysetid) REFERENCES public.keyset (id) ON UPDATE CASCADE,
    CONSTRAINT keyset_contact_map_contactid_fkey FOREIGN KEY (contactid) REFERENCES public.contact (id) ON UPDATE CASCADE ON DELETE CASCADE
);
CREATE INDEX keyset_contact_map_keyset_idx ON public.keyset_contact_map (keysetid);

-- keyset comes last: FRED added it to an existing table, so that is where it sits there.
CREATE TABLE public.domain (
    id integer NOT NULL,
    zone integer NOT NULL,
    registrant integer NOT NULL,
    nsset integer,
    exdate date NOT NULL,
    keyset integer,
    CONSTRAINT domain_pkey PRIMARY KEY (id),
    CONSTRAINT domain_id_fkey FOREIGN KEY (id) REFERENCES public.object (id),
    CONSTRAINT domain_zone_fkey FOREIGN KEY (zone) REFERENCES public.zone (id),
    CONSTRAINT domain_registrant_fkey FOREIGN KEY (registrant) REFERENCES public.contact (id),
    CONSTRAINT domain_nsset_fkey FOREIGN KEY (nsset) REFERENCES public.nsset (id),
    CONSTRAINT domain_keyset_fkey FOREIGN KEY (keyset) REFERENCES public.keyset (id)
);
CREATE INDEX domain_zone_idx ON public.domain (zone);
CREATE INDEX domain_registrant_idx ON public.domain (registrant);
CREATE INDEX domain_nsset_idx ON public.domain (nsset);
CREATE INDEX domain_exdate_idx ON public.domain (exdate);

CREATE TABLE public.domain_contact_map (
    domainid integer NOT NULL,
    contactid integer NOT NULL,
    role integer NOT NULL DEFAULT 1,
    CONSTRAINT domain_contact_map_pkey PRIMARY KEY (domainid, contactid),
    CONSTRAINT domain_contact_map_domainid_fkey FOREIGN KEY (domainid) REFERENCES public.domain (id) ON UPDATE CASCADE ON DELETE CASCADE,
    CONSTRAINT domain_contact_map_contactid_fkey FOREIGN KEY (contactid) REFERENCES public.contact (id) ON UPDATE CASCADE
);
CREATE INDEX domain_contact_map_domainid_idx ON public.domain_contact_map (domainid);
CREATE INDEX domain_contact_map_contactid_idx ON public.domain_contact_map (contactid);

-- ENUM domains' validation (exdate here is the validation's end).
CREATE TABLE public.enumval (
    domainid integer NOT NULL,
    exdate date NOT NULL,
    publish boolean NOT NULL DEFAULT false,
    CONSTRAINT enumval_pkey PRIMARY KEY (domainid),
    CONSTRAINT enumval_domainid_fkey FOREIGN KEY (domainid) REFERENCES public.domain (id) ON UPDATE CASCADE ON DELETE CASCADE
);

-- Object data per history record; object_state.ohid_from/ohid_to point here. Columns and keys only.
CREATE TABLE public.object_history (
    historyid integer NOT NULL,
    id integer,
    clid integer NOT NULL,
    upid integer,
    trdate timestamp,
    update timestamp,
    authinfopw varchar(300),
    CONSTRAINT object_history_pkey PRIMARY KEY (historyid),
    CONSTRAINT object_history_historyid_fkey FOREIGN KEY (historyid) REFERENCES public.history (id),
    CONSTRAINT object_history_id_fkey FOREIGN KEY (id) REFERENCES public.object_registry (id),
    CONSTRAINT object_history_clid_fkey FOREIGN KEY (clid) REFERENCES public.registrar (id),
    CONSTRAINT object_history_upid_fkey FOREIGN KEY (upid) REFERENCES public.registrar (id)
);
CREATE INDEX object_history_id_idx ON public.object_history (id);
CREATE INDEX object_history_clid_idx ON public.object_history (clid);
CREATE INDEX object_history_upid_idx ON public.object_history (upid);

-- The state catalogue. FRED joins state names with commas, hence no comma in a name.
CREATE TABLE public.enum_object_states (
    id integer NOT NULL,
    name varchar(50) NOT NULL,
    types integer[] NOT NULL,
    manual boolean NOT NULL,
    external boolean NOT NULL,
    importance integer,
    CONSTRAINT enum_object_states_pkey PRIMARY KEY (id),
    CONSTRAINT name_delimiter_check CHECK (name NOT LIKE '%,%')
);

-- FRED's 32 states with the types it ends up with (its upgrade gave keyset, 4, every state an
-- nsset, 2, can have), its importance bits, manual and external flags.
INSERT INTO public.enum_object_states (id, name, types, manual, external, importance) VALUES
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
    (18, 'serverRegistrantChangeProhibited', '{3}', true, true, 8192),
    (19, 'deleteWarning', '{3}', false, false, NULL),
    (20, 'outzoneUnguarded', '{3}', false, false, NULL),
    (21, 'conditionallyIdentifiedContact', '{1}', true, true, 32),
    (22, 'identifiedContact', '{1}', true, true, 16),
    (23, 'validatedContact', '{1}', true, true, 64),
    (24, 'mojeidContact', '{1}', true, true, 4),
    (25, 'contactPassedManualVerification', '{1}', true, true, NULL),
    (26, 'contactInManualVerification', '{1}', true, true, NULL),
    (27, 'contactFailedManualVerification', '{1}', true, true, NULL),
    (28, 'outzoneUnguardedWarning', '{3}', false, false, NULL),
    (29, 'serverContactNameChangeProhibited', '{1}', true, true, NULL),
    (30, 'serverContactOrganizationChangeProhibited', '{1}', true, true, NULL),
    (31, 'serverContactIdentChangeProhibited', '{1}', true, true, NULL),
    (32, 'serverContactPermanentAddressChangeProhibited', '{1}', true, true, NULL);

CREATE TABLE public.enum_object_states_desc (
    state_id integer NOT NULL,
    lang char(2) NOT NULL,
    description varchar(255),
    CONSTRAINT enum_object_states_desc_pkey PRIMARY KEY (state_id, lang),
    CONSTRAINT enum_object_states_desc_state_id_fkey FOREIGN KEY (state_id) REFERENCES public.enum_object_states (id)
);

-- FRED's descriptions, English and Czech, word for word (registrars and users see them).
INSERT INTO public.enum_object_states_desc (state_id, lang, description) VALUES
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
    (18, 'CS', 'Není povolena změna držitele'),
    (19, 'EN', 'The domain will be deleted in 11 days'),
    (19, 'CS', 'Registrace domény bude zrušena za 11 dní'),
    (20, 'EN', 'The domain is out of zone after 30 days in expiration state'),
    (20, 'CS', 'Doména vyřazena ze zóny po 30 dnech od expirace'),
    (21, 'EN', 'Contact is conditionally identified'),
    (21, 'CS', 'Kontakt je částečně identifikován'),
    (22, 'EN', 'Contact is identified'),
    (22, 'CS', 'Kontakt je identifikován'),
    (23, 'EN', 'Contact is validated'),
    (23, 'CS', 'Kontakt je validován'),
    (24, 'EN', 'MojeID contact'),
    (24, 'CS', 'MojeID kontakt'),
    (25, 'EN', 'Contact has been verified by CZ.NIC customer support'),
    (25, 'CS', 'Kontakt byl ověřen zákaznickou podporou CZ.NIC'),
    (26, 'EN', 'Contact is being verified by CZ.NIC customer support'),
    (26, 'CS', 'Kontakt je ověřován zákaznickou podporou CZ.NIC'),
    (27, 'EN', 'Contact has failed the verification by CZ.NIC customer support'),
    (27, 'CS', 'Ověření kontaktu zákaznickou podporou bylo neúspěšné'),
    (28, 'EN', 'The domain is to be out of zone soon'),
    (28, 'CS', 'Doména bude brzy vyřazena ze zóny'),
    (29, 'EN', 'Name update forbidden'),
    (29, 'CS', 'Není povolena změna jména'),
    (30, 'EN', 'Organization update forbidden'),
    (30, 'CS', 'Není povolena změna organizace'),
    (31, 'EN', 'Ident update forbidden'),
    (31, 'CS', 'Není povolena změna dodatečného identifikátoru'),
    (32, 'EN', 'Permanent address update forbidden'),
    (32, 'CS', 'Není povolena změna adresy trvalého bydliště');

-- States objects hold: a row per stay, valid_to NULL while it lasts.
CREATE TABLE public.object_state (
    id serial NOT NULL,
    object_id integer NOT NULL,
    state_id integer NOT NULL,
    valid_from timestamp NOT NULL,
    valid_to timestamp,
    ohid_from integer,
    ohid_to integer,
    CONSTRAINT object_state_pkey PRIMARY KEY (id),
    CONSTRAINT object_state_object_id_fkey FOREIGN KEY (object_id) REFERENCES public.object_registry (id),
    CONSTRAINT object_state_state_id_fkey FOREIGN KEY (state_id) REFERENCES public.enum_object_states (id),
    CONSTRAINT object_state_ohid_from_fkey FOREIGN KEY (ohid_from) REFERENCES public.object_history (historyid),
    CONSTRAINT object_state_ohid_to_fkey FOREIGN KEY (ohid_to) REFERENCES public.object_history (historyid)
);
-- At most one open stay per object and state.
CREATE UNIQUE INDEX object_state_now_idx ON public.object_state (object_id, state_id) WHERE valid_to IS NULL;
CREATE INDEX object_state_object_id_idx ON public.object_state (object_id) WHERE valid_to IS NULL;
CREATE INDEX object_state_object_id_all_idx ON public.object_state (object_id);
CREATE INDEX object_state_valid_from_idx ON public.object_state (valid_from);
CREATE INDEX object_state_valid_to_idx ON public.object_state (valid_to);

-- Current states per object.
CREATE VIEW public.object_state_now AS
    SELECT object_id, array_agg(state_id) AS states
    FROM public.object_state
    WHERE valid_to IS NULL
    GROUP BY object_id;

-- Requests for (mainly manual) states over a period; canceled ends one early.
CREATE TABLE public.object_state_request (
    id serial NOT NULL,
    object_id integer NOT NULL,
    state_id integer NOT NULL,
    valid_from timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    valid_to timestamp,
    crdate timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    canceled timestamp,
    uuid uuid NOT NULL DEFAULT gen_random_uuid(),
    CONSTRAINT object_state_request_pkey PRIMARY KEY (id),
    CONSTRAINT object_state_request_uuid_key UNIQUE (uuid),
    CONSTRAINT object_state_request_object_id_fkey FOREIGN KEY (object_id) REFERENCES public.object_registry (id),
    CONSTRAINT object_state_request_state_id_fkey FOREIGN KEY (state_id) REFERENCES public.enum_object_states (id)
);
CREATE INDEX object_state_request_object_id_idx ON public.object_state_request (object_id);

-- Requests in force now, per object. Like FRED's, it compares the stored UTC wall-clock times
-- with CURRENT_TIMESTAMP in the session's time zone, so it is right in sessions set to UTC.
CREATE VIEW public.object_state_request_now AS
    SELECT object_id, array_agg(state_id) AS states
    FROM public.object_state_request
    WHERE valid_from <= CURRENT_TIMESTAMP
      AND (valid_to IS NULL OR valid_to >= CURRENT_TIMESTAMP)
      AND canceled IS NULL
    GROUP BY object_id;

-- FRED serialises work on an object's requests by inserting and deleting its row here. FRED has
-- no foreign key on object_id (it left it out on purpose), so neither does this table.
CREATE TABLE public.object_state_request_lock (
    object_id integer NOT NULL,
    CONSTRAINT object_state_request_lock_pkey PRIMARY KEY (object_id)
);

-- Codes of external reasons for a request; FRED ships it empty.
CREATE TABLE public.enum_object_state_request_reason_external (
    id integer NOT NULL,
    description text NOT NULL,
    CONSTRAINT enum_object_state_request_reason_external_pkey PRIMARY KEY (id)
);

-- Why a request was made and why it was cancelled.
CREATE TABLE public.object_state_request_reason (
    object_state_request_id integer NOT NULL,
    reason_creation varchar(300) DEFAULT NULL,
    reason_cancellation varchar(300) DEFAULT NULL,
    reason_creation_external_id integer,
    CONSTRAINT object_state_request_reason_pkey PRIMARY KEY (object_state_request_id),
    CONSTRAINT object_state_request_reason_object_state_request_id_fkey
        FOREIGN KEY (object_state_request_id) REFERENCES public.object_state_request (id),
    CONSTRAINT object_state_request_reason_reason_creation_external_id_fkey
        FOREIGN KEY (reason_creation_external_id) REFERENCES public.enum_object_state_request_reason_external (id)
);

-- FRED's operational parameters, addressed by id; values are text.
CREATE TABLE public.enum_parameters (
    id integer NOT NULL,
    name varchar(100) NOT NULL,
    val varchar(100) NOT NULL,
    CONSTRAINT enum_parameters_pkey PRIMARY KEY (id),
    CONSTRAINT enum_parameters_name_key UNIQUE (name)
);

-- Id 1 marks the data model this schema equals. The day periods (3-8, 18) are days relative to
-- the expiration date; 9 and 14 are the hours, in zone 10, of the daily object and outzone runs;
-- 11 and 12 are months.
INSERT INTO public.enum_parameters (id, name, val) VALUES
    (1, 'model_version', '2.52.0'),
    (2, 'tld_list_version', '2008013001'),
    (3, 'expiration_notify_period', '-30'),
    (4, 'expiration_dns_protection_period', '30'),
    (5, 'expiration_letter_warning_period', '34'),
    (6, 'expiration_registration_protection_period', '61'),
    (7, 'validation_notify1_period', '-30'),
    (8, 'validation_notify2_period', '-15'),
    (9, 'regular_day_procedure_period', '0'),
    (10, 'regular_day_procedure_zone', 'Europe/Prague'),
    (11, 'object_registration_protection_period', '6'),
    (12, 'handle_registration_protection_period', '0'),
    (13, 'roid_suffix', 'EPP'),
    (14, 'regular_day_outzone_procedure_period', '14'),
    (15, 'mojeid_async_sms_generation', 'enabled'),
    (16, 'mojeid_async_letter_generation', 'enabled'),
    (17, 'mojeid_async_email_generation', 'enabled'),
    (18, 'outzone_unguarded_email_warning_period', '25'),
    (19, 'enum_validation_continuation_window', '14');

-- Domain lifecycle periods by expiration date: a row applies to domains expiring on or after
-- valid_for_exdate_after, the latest such row wins.
CREATE TABLE public.domain_lifecycle_parameters (
    id serial NOT NULL,
    valid_for_exdate_after timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    expiration_notify_period interval NOT NULL,
    outzone_unguarded_email_warning_period interval NOT NULL,
    expiration_dns_protection_period interval NOT NULL,
    expiration_letter_warning_period interval NOT NULL,
    expiration_registration_protection_period interval NOT NULL,
    validation_notify1_period interval NOT NULL,
    validation_notify2_period interval NOT NULL,
    CONSTRAINT domain_lifecycle_parameters_pkey PRIMARY KEY (id),
    CONSTRAINT domain_lifecycle_parameters_valid_for_exdate_after_key UNIQUE (valid_for_exdate_after)
);

-- FRED's single row, in force for every domain expiring after the install day minus 20 years;
-- its id comes from the sequence, as in FRED.
INSERT INTO public.domain_lifecycle_parameters (
    valid_for_exdate_after,
    expiration_notify_period,
    outzone_unguarded_email_warning_period,
    expiration_dns_protection_period,
    expiration_letter_warning_period,
    expiration_registration_protection_period,
    validation_notify1_period,
    validation_notify2_period
) VALUES (
    now()::date - interval '20 years',
    interval '-30 days',
    interval '25 days',
    interval '30 days',
    interval '34 days',
    interval '61 days',
    interval '-30 days',
    interval '-15 days'
);
