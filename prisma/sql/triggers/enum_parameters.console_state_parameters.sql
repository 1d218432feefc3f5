CREATE TRIGGER console_state_parameters AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON enum_parameters FOR EACH STATEMENT EXECUTE FUNCTION console.state_parameters_changed();
