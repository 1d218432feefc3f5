CREATE TRIGGER console_state_catch_up BEFORE INSERT OR DELETE OR UPDATE ON enumval FOR EACH ROW EXECUTE FUNCTION console.state_column_before('domainid');
