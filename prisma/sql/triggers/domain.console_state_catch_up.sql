CREATE TRIGGER console_state_catch_up BEFORE INSERT OR DELETE ON domain FOR EACH ROW EXECUTE FUNCTION console.state_domain_before();
