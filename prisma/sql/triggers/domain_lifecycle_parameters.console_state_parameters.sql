CREATE TRIGGER console_state_parameters AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON domain_lifecycle_parameters FOR EACH STATEMENT EXECUTE FUNCTION console.state_parameters_changed();
