CREATE TRIGGER console_1_request_check BEFORE INSERT OR UPDATE OF object_id, state_id, valid_from, valid_to ON object_state_request FOR EACH ROW EXECUTE FUNCTION console.object_state_request_check();
